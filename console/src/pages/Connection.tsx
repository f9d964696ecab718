import { useEffect, useId, useState } from 'react';
import { storeHostOf } from '../store-host';
import { ApiError } from '../api';
import { useConsole } from '../context';
import { formatDate, useLoad } from '../hooks';
import { TokenStorageNotice } from '../components/TokenStorageNotice';
import { usePageTitle } from '../title';
import { ActionMessage } from '../components/ActionMessage';
import { refusal } from '../problem-words';
import { useOneAtATime } from '../one-at-a-time';

/** The connection's fields by their labels on this page, for the API's refusals. */
const CONNECTION_LABELS = {
  shop_domain: 'Store address',
  access_token: 'Admin API access token',
  webhook_secret: 'App client secret',
  api_version: 'API version',
  api_url: 'API address',
};

/** `GET …/platform` (docs/api.md, "Connecting the platform"). */
interface Sync {
  id: number;
  mode: 'full' | 'reconcile';
  phase: 'queued' | 'exporting' | 'importing' | 'subscribing' | 'done' | 'failed';
  counts: { products: number; collections: number; customers: number; orders: number };
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}
interface Platform {
  shop_domain: string;
  api_version: string;
  api_url: string;
  access_token_set: boolean;
  status: 'connected' | 'disconnected' | 'failing';
  sync: Sync | null;
  last_reconciled_at: string | null;
  webhooks: string[];
}

const STATUS: Record<Platform['status'], string> = {
  connected: 'Connected: changes in your store arrive here by themselves.',
  disconnected: 'Disconnected: nothing arrives from your store; the data already here stays.',
  failing: 'Failing: your store refused the access token several times. Reconnect with a new token.',
};
const PHASE: Record<Sync['phase'], string> = {
  queued: 'Waiting to start',
  exporting: 'Your store is preparing the export',
  importing: 'Importing',
  subscribing: 'Subscribing to your store’s updates',
  done: 'Finished',
  failed: 'Failed',
};
const running = (sync: Sync | null) => sync !== null && sync.phase !== 'done' && sync.phase !== 'failed';

/**
 * What the connection does for the merchant now: the platform's status, as the last sync bears it
 * out. A connection whose first sync failed (an address that is no store, a refused token) brings
 * nothing in, and is not called connected.
 */
function headline(platform: Platform): string {
  if (platform.status !== 'connected') return STATUS[platform.status];
  const { sync, webhooks } = platform;
  if (sync?.phase === 'failed')
    return webhooks.length === 0
      ? 'Not working yet: the first sync failed, so nothing arrives from your store. ' +
          'Check the store address and the token below, then connect again.'
      : 'Connected, but the last sync failed: changes still arrive as they happen; ' +
          'what that sync was to bring in is missing until one works.';
  if (running(sync) && webhooks.length === 0)
    return 'Connecting: the first sync is under way. Changes arrive by themselves once it is done.';
  return STATUS.connected;
}

/**
 * Connecting the shop to its storefront platform once; then its progress, its health, and a way back in when it fails.
 */
export function ConnectionPage() {
  const { api, shop } = useConsole();
  usePageTitle('Connection');
  const path = `/shops/${encodeURIComponent(shop.handle)}/platform`;
  const [tick, setTick] = useState(0);
  const loaded = useLoad(
    () =>
      api.get<{ platform: Platform }>(path).then(
        (r) => r.platform,
        (e: unknown) => (e instanceof ApiError && e.status === 404 ? null : Promise.reject(e)),
      ),
    [path, tick],
    { keepPrevious: true },
  );
  const platform = loaded.data;
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  // While a sync runs, its progress is read again every two seconds.
  useEffect(() => {
    if (!platform || !running(platform.sync)) return;
    const timer = setTimeout(() => setTick((n) => n + 1), 2000);
    return () => clearTimeout(timer);
  }, [platform]);

  const act = async (what: () => Promise<unknown>, done: string) => {
    setMessage(null);
    try {
      await what();
      setMessage({ error: false, text: done });
      setTick((n) => n + 1);
    } catch (e) {
      setMessage({ error: true, text: refusal(e, CONNECTION_LABELS) });
    }
  };
  return (
    <section aria-labelledby="connection-heading">
      <h1 id="connection-heading">Connection</h1>
      {loaded.error && (
        <p className="error" role="alert">
          {loaded.error}
        </p>
      )}
      {platform === null && (
        <p>
          Not connected yet. Connect your store once: its products, collections, customers and orders come in, and stay
          in sync by themselves.
        </p>
      )}
      {platform && <Status platform={platform} />}
      {platform && (
        <div className="actions">
          <button
            type="button"
            disabled={running(platform.sync)}
            onClick={() =>
              void act(
                () => api.send('POST', `${path}/sync`, { mode: 'reconcile' }),
                'Looking for changes since the last check.',
              )
            }
          >
            Check for changes now
          </button>
          <button
            type="button"
            disabled={running(platform.sync)}
            onClick={() =>
              void act(() => api.send('POST', `${path}/sync`, { mode: 'full' }), 'A full sync has started.')
            }
          >
            Sync everything again
          </button>
          {platform.status !== 'disconnected' && (
            <button
              type="button"
              className="danger"
              onClick={() => {
                if (
                  window.confirm(
                    'Disconnect your store? Its webhooks are removed and no more changes arrive; ' +
                      'the products, customers and orders already here stay.',
                  )
                )
                  void act(() => api.send('DELETE', path), 'Disconnected.');
              }}
            >
              Disconnect
            </button>
          )}
        </div>
      )}
      <ActionMessage message={message} okClass="notice" />
      {loaded.data !== undefined && (
        <ConnectForm
          current={platform ?? null}
          onSaved={(text) => void act(() => Promise.resolve(), text)}
          onError={(text) => setMessage({ error: true, text })}
        />
      )}
    </section>
  );
}

function Status({ platform }: { platform: Platform }) {
  const sync = platform.sync;
  return (
    <div className="connection-status" data-testid="connection-status">
      <h2>{platform.shop_domain}</h2>
      <p>
        <strong>{headline(platform)}</strong>
      </p>
      <dl className="facts">
        <dt>Last sync</dt>
        <dd>
          {sync
            ? `${sync.mode === 'full' ? 'Full sync' : 'Check for changes'}: ${PHASE[sync.phase]}` +
              `${sync.started_at ? `, started ${formatDate(sync.started_at)}` : ''}` +
              `${sync.finished_at ? `, ended ${formatDate(sync.finished_at)}` : ''}`
            : 'None yet'}
        </dd>
        {sync && (
          <>
            <dt>Brought in</dt>
            <dd>
              {`${sync.counts.products} products, ${sync.counts.collections} collections, ` +
                `${sync.counts.customers} customers, ${sync.counts.orders} orders`}
            </dd>
          </>
        )}
        <dt>Last check for changes</dt>
        <dd>{platform.last_reconciled_at ? formatDate(platform.last_reconciled_at) : 'Not yet'}</dd>
        <dt>Updates subscribed</dt>
        <dd>{platform.webhooks.length === 0 ? 'None yet' : `${platform.webhooks.length} kinds of change`}</dd>
        <dt>Access token</dt>
        <dd>{platform.access_token_set ? 'Stored (never shown)' : 'Missing'}</dd>
      </dl>
      {sync?.error && (
        <p className="error" role="alert">
          The last sync failed: {sync.error}
        </p>
      )}
    </div>
  );
}

function ConnectForm({
  current,
  onSaved,
  onError,
}: {
  current: Platform | null;
  onSaved(text: string): void;
  onError(text: string): void;
}) {
  const { api, shop, canStoreTokens } = useConsole();
  const ids = useId();
  const [domain, setDomain] = useState(current?.shop_domain ?? '');
  const [token, setToken] = useState('');
  const [version, setVersion] = useState(current?.api_version ?? '2025-10');
  const [secret, setSecret] = useState('');
  const [apiUrl, setApiUrl] = useState('');
  const [busy, oneAtATime] = useOneAtATime();
  const submit = async () => {
    try {
      // A pasted token or secret often carries a blank or a line break at an end: never part of one.
      const body = {
        shop_domain: storeHostOf(domain),
        api_version: version.trim(),
        ...(token.trim() ? { access_token: token.trim() } : {}),
        ...(secret.trim() ? { webhook_secret: secret.trim() } : {}),
        ...(apiUrl.trim() ? { api_url: apiUrl.trim() } : {}),
      };
      await api.send('PUT', `/shops/${encodeURIComponent(shop.handle)}/platform`, body);
      setToken('');
      setSecret('');
      onSaved('Saved. A full sync has started: whether your store answers shows above.');
    } catch (e) {
      onError(refusal(e, CONNECTION_LABELS));
    }
  };
  return (
    <form
      className="connect-form"
      aria-labelledby={`${ids}-h`}
      onSubmit={(e) => {
        e.preventDefault();
        void oneAtATime(submit);
      }}
    >
      <h2 id={`${ids}-h`}>{current ? 'Reconnect' : 'Connect your store'}</h2>
      {!canStoreTokens && <TokenStorageNotice what="your store" />}
      <div className="field">
        <label htmlFor={`${ids}-domain`}>Store address</label>
        <input
          id={`${ids}-domain`}
          value={domain}
          required
          placeholder="acme.myshopify.com"
          onChange={(e) => setDomain(e.target.value.trim().toLowerCase())}
        />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-token`}>
          Admin API access token{current?.access_token_set ? ' (leave empty to keep the stored one)' : ''}
        </label>
        <input
          id={`${ids}-token`}
          type="password"
          autoComplete="off"
          required={!current?.access_token_set}
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-secret`}>App client secret (signs your store’s webhooks; optional)</label>
        <input
          id={`${ids}-secret`}
          type="password"
          autoComplete="off"
          minLength={16}
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-version`}>API version</label>
        <input
          id={`${ids}-version`}
          value={version}
          required
          pattern="\d{4}-(01|04|07|10)"
          title="A release of the Admin API: a year and 01, 04, 07 or 10, such as 2025-10"
          onChange={(e) => setVersion(e.target.value)}
        />
      </div>
      <details>
        <summary>Advanced</summary>
        <div className="field">
          <label htmlFor={`${ids}-url`}>API address (only for a proxy; default https://STORE/admin/api/VERSION)</label>
          <input id={`${ids}-url`} value={apiUrl} onChange={(e) => setApiUrl(e.target.value)} />
        </div>
      </details>
      <button type="submit" className="primary" disabled={!canStoreTokens || busy}>
        {current ? 'Reconnect' : 'Connect'}
      </button>
    </form>
  );
}
