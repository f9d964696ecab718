import { useId, useState } from 'react';
import { useConsole } from '../context';
import type { Shop } from '../types';
import { refusal } from '../problem-words';

type Which = 'webhook_secret' | 'billing_webhook_secret';
const LABELS: Record<Which, string> = {
  webhook_secret: 'Storefront webhook secret',
  billing_webhook_secret: 'Billing webhook secret',
};

/**
 * The secrets that sign each platform's webhooks: write-only (the console only learns whether one
 * is set), replaced or removed here. A wrong secret makes every delivery a 401.
 */
export function WebhookSecrets() {
  const { api, shop, onShopChanged } = useConsole();
  return (
    <div className="webhook-secrets">
      {(Object.keys(LABELS) as Which[]).map((which) => (
        <SecretForm
          key={which}
          which={which}
          isSet={which === 'webhook_secret' ? shop.webhook_secret_set : shop.billing_webhook_secret_set}
          save={async (value) => {
            const { shop: saved } = await api.send<{ shop: Shop }>(
              'PATCH',
              `/shops/${encodeURIComponent(shop.handle)}`,
              { [which]: value },
            );
            onShopChanged(saved);
          }}
        />
      ))}
    </div>
  );
}

function SecretForm({
  which,
  isSet,
  save,
}: {
  which: Which;
  isSet: boolean;
  save(value: string | null): Promise<void>;
}) {
  const id = useId();
  const [value, setValue] = useState('');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const run = async (next: string | null) => {
    setStatus(null);
    try {
      await save(next);
      setValue('');
      setStatus({
        ok: true,
        text:
          next === null
            ? 'Removed: deliveries are no longer accepted.'
            : 'Saved. Deliveries signed with it are accepted.',
      });
    } catch (e) {
      setStatus({ ok: false, text: refusal(e, LABELS) });
    }
  };
  return (
    <form
      className="field"
      onSubmit={(e) => {
        e.preventDefault();
        // A paste's blanks at either end are never part of a secret (the server refuses them).
        void run(value.trim());
      }}
    >
      <label htmlFor={id}>
        {LABELS[which]} ({isSet ? 'set' : 'not set'})
      </label>
      <input
        id={id}
        type="password"
        autoComplete="off"
        minLength={16}
        required
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit">
        {isSet ? `Replace the ${LABELS[which].toLowerCase()}` : `Set the ${LABELS[which].toLowerCase()}`}
      </button>
      {isSet && (
        <button
          type="button"
          onClick={() => {
            if (
              window.confirm(
                `Remove the ${LABELS[which].toLowerCase()}? ` +
                  'Every webhook delivery from that platform is then refused until a new one is set.',
              )
            )
              void run(null);
          }}
        >
          Remove the {LABELS[which].toLowerCase()}
        </button>
      )}
      <span role="status" className={status?.ok === false ? 'error' : 'ok'}>
        {status?.text ?? ''}
      </span>
    </form>
  );
}
