import { useState } from 'react';
import { useConsole } from '../context';

type State = { kind: 'off' } | { kind: 'saving' } | { kind: 'on' } | { kind: 'failed'; message: string };

/**
 * Without customer signatures, anyone holding the shop's public key (it is in the storefront's
 * pages) can ask for any customer's purchase-based lists by id (docs/api.md, "Customer signatures").
 * The notice says so and turns them on in one step; it stays away once they are on.
 */
export function CustomerSignatureNotice() {
  const { api, shop } = useConsole();
  const [state, setState] = useState<State>({ kind: 'off' });
  if (shop.settings.require_customer_signature || state.kind === 'on') return null;

  const turnOn = async () => {
    setState({ kind: 'saving' });
    try {
      await api.send('PATCH', `/shops/${encodeURIComponent(shop.handle)}`, { settings: { ...shop.settings, require_customer_signature: true } });
      setState({ kind: 'on' });
    } catch (error) {
      setState({ kind: 'failed', message: (error as Error).message });
    }
  };

  return (
    <section className="notice" aria-label="Customer signatures">
      <p>
        <strong>Customer lists are not signed.</strong> Anyone with this shop's public key can read a customer's purchased and personal lists by customer id.
        Sign <code>shop_customer_id</code> with <code>customer_sig</code> in the storefront, then require it.
      </p>
      <button type="button" onClick={turnOn} disabled={state.kind === 'saving'}>
        {state.kind === 'saving' ? 'Turning on…' : 'Require customer signatures'}
      </button>
      {state.kind === 'failed' && (
        <p className="error" role="alert">
          {state.message}
        </p>
      )}
    </section>
  );
}
