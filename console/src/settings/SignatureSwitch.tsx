/** What turning customer signatures on or off does to a live storefront, said before it happens. */
export const SIGNATURE_ON_WARNING =
  'Require customer signatures?\n\nFrom now on every storefront request that names a customer (shop_customer_id) ' +
  'without a valid customer_sig is refused (403). ' +
  'Widgets and lists for signed-in customers stop showing until your theme signs the customer id, and a ' +
  'thank-you page’s order ids (shop_order_ids) count only for the signed customer’s own orders. ' +
  'Turn this on only once your theme sends customer_sig.';
export const SIGNATURE_OFF_WARNING =
  'Stop requiring customer signatures?\n\nAnyone with your public key (it is in your storefront pages) ' +
  'can then read any customer’s purchased and personal lists by customer id, and what any order holds by order id.';

/** The switch: asks with the consequence spelled out, then saves. */
export function SignatureSwitch({ on, busy, onChange }: { on: boolean; busy: boolean; onChange(next: boolean): void }) {
  return (
    <div className="setting-row">
      <p>
        <strong>Customer signatures are {on ? 'required' : 'not required'}.</strong>{' '}
        {on
          ? 'Requests naming a customer must carry customer_sig; unsigned ones are refused.'
          : 'Anyone with the public key can read a customer’s purchased and personal lists by customer id, ' +
            'and what any order holds by order id.'}
      </p>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          if (window.confirm(on ? SIGNATURE_OFF_WARNING : SIGNATURE_ON_WARNING)) onChange(!on);
        }}
      >
        {on ? 'Stop requiring customer signatures' : 'Require customer signatures'}
      </button>
    </div>
  );
}
