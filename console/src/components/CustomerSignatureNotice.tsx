import { useConsole } from '../context';

/**
 * Without customer signatures, anyone holding the shop's public key (it is in the storefront's
 * pages) can ask for any customer's purchase-based lists by id (docs/api.md, "Customer signatures").
 * The notice says so and leads to Settings, where the switch asks before it changes a live
 * storefront; it stays away once signatures are required.
 */
/** What to do about it, with the link to the switch. */
const REMEDY = (
  <>
    Sign <code>shop_customer_id</code> with <code>customer_sig</code> in the storefront, then require it in{' '}
    <a href="#/settings">Settings</a>.
  </>
);

export function CustomerSignatureNotice() {
  const { shop } = useConsole();
  if (shop.settings.require_customer_signature) return null;
  return (
    <section className="notice" aria-label="Customer signatures">
      <p>
        <strong>Customer lists are not signed.</strong> Anyone with this shop's public key can read a customer's
        purchased and personal lists by customer id, and what any order holds by order id. {REMEDY}
      </p>
    </section>
  );
}
