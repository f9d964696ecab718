import { useState } from 'react';
import { ApiError } from '../api';
import { TableWrap } from '../components/TableWrap';
import { useConsole } from '../context';
import { formatDate, useLoad } from '../hooks';
import { type KeySummary, keyState, rotationWarning } from '../privacy/keys';
import { usePageTitle } from '../title';

interface Issued {
  keys: { public: string; private: string };
  previous_keys_expire_at: string;
}

/**
 * The shop's API keys: which are live and until when, new ones when a key may have leaked, and
 * (for the operator) ending one at once. Keys themselves are shown once, when they are made.
 */
export function KeysPage() {
  const { api, shop, operator, replaceToken } = useConsole();
  usePageTitle('Keys');
  const base = `/shops/${encodeURIComponent(shop.handle)}`;
  const [version, setVersion] = useState(0);
  const list = useLoad(() => api.get<{ data: KeySummary[] }>(`${base}/keys`).then((r) => r.data), [base, version], {
    keepPrevious: true,
  });
  const [issued, setIssued] = useState<Issued | null>(null);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    setMessage(null);
    try {
      setMessage({ error: false, text: await work() });
      setVersion((v) => v + 1);
    } catch (e) {
      setMessage({ error: true, text: e instanceof ApiError ? e.message : (e as Error).message });
    } finally {
      setBusy(false);
    }
  };

  const rotate = () => {
    if (!window.confirm(rotationWarning(operator))) return;
    void act(async () => {
      const made = await api.send<Issued>('POST', `${base}/keys/rotate`);
      setIssued(made);
      // The private key this console signed in with has ended: it goes on with the new one.
      if (!operator) replaceToken(made.keys.private);
      return 'New keys are made. Copy them now: they are not shown again.';
    });
  };

  const revoke = (key: KeySummary) => {
    const what = `the ${key.kind} key ${key.key_prefix}…`;
    if (!window.confirm(`End ${what} now? Every request that sends it is refused from then on, on every node.`)) return;
    void act(async () => {
      await api.send('POST', `${base}/keys/revoke`, { key_prefix: key.key_prefix });
      return `Ended ${what}.`;
    });
  };

  return (
    <section aria-labelledby="keys-heading">
      <div className="page-head">
        <h1 id="keys-heading">Keys</h1>
        <button type="button" disabled={busy} onClick={rotate}>
          Make new keys…
        </button>
      </div>
      <p>
        The public key goes in your storefront's pages; the private key is for your own servers and for signing in here.
        Make new ones when a key may have been seen by someone it was not meant for.
      </p>
      {message && (
        <p className={message.error ? 'error' : 'ok'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      {issued && <IssuedKeys issued={issued} />}
      {list.error && (
        <p className="error" role="alert">
          {list.error}
        </p>
      )}
      {list.loading && !list.data && <p className="muted">Loading…</p>}
      {list.data && (
        <TableWrap>
          <table>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Begins with</th>
                <th scope="col">Made</th>
                <th scope="col">State</th>
                {operator && <th scope="col">End it</th>}
              </tr>
            </thead>
            <tbody>
              {list.data.map((k) => (
                <tr key={`${k.kind}-${k.key_prefix}`}>
                  <td>{k.kind === 'public' ? 'Public' : 'Private'}</td>
                  <td>
                    <code>{k.key_prefix}…</code>
                  </td>
                  <td>{formatDate(k.created_at)}</td>
                  <td>{keyState(k, formatDate)}</td>
                  {operator && (
                    <td>
                      {k.state !== 'ended' && (
                        <button type="button" className="link danger" disabled={busy} onClick={() => revoke(k)}>
                          End the {k.kind} key {k.key_prefix}… now
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}

function IssuedKeys({ issued }: { issued: Issued }) {
  return (
    <section className="issued-keys" aria-label="New keys">
      <dl>
        <dt>Public key</dt>
        <dd>
          <code>{issued.keys.public}</code>
        </dd>
        <dt>Private key</dt>
        <dd>
          <code>{issued.keys.private}</code>
        </dd>
      </dl>
      <p>
        Put the new public key in your storefront's pages and the private key in your servers before{' '}
        {formatDate(issued.previous_keys_expire_at)}: the keys they replace stop working then.
      </p>
    </section>
  );
}
