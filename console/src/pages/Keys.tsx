import { LoadState } from '../components/LoadState';
import { useEffect, useRef, useState } from 'react';
import { ActionMessage, type Said } from '../components/ActionMessage';
import { CopyButton } from '../components/CopyButton';
import { TableWrap } from '../components/TableWrap';
import { useConsole } from '../context';
import { formatDate, useLoad } from '../hooks';
import { issuedAdvice, type KeySummary, keyState, rotationWarning, signedInKey } from '../privacy/keys';
import { usePageTitle } from '../title';
import { refusal } from '../problem-words';

interface Issued {
  keys: { public: string; private: string };
  previous_keys_expire_at: string;
}

/**
 * The shop's API keys: which are live and until when, new ones when a key may have leaked, and
 * (for the operator) ending one at once. Keys themselves are shown once, when they are made.
 */
export function KeysPage({ askBeforeLeaving }: { askBeforeLeaving(question: string | null): void }) {
  const { api, shop, operator, replaceToken, bearer } = useConsole();
  usePageTitle('Keys');
  const base = `/shops/${encodeURIComponent(shop.handle)}`;
  const [version, setVersion] = useState(0);
  const list = useLoad(() => api.get<{ data: KeySummary[] }>(`${base}/keys`).then((r) => r.data), [base, version], {
    keepPrevious: true,
  });
  const [issued, setIssued] = useState<Issued | null>(null);
  const [message, setMessage] = useState<Said | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [showEnded, setShowEnded] = useState(false);
  // The new keys are shown once: leaving the page (or reloading it) while they show asks first.
  useEffect(() => {
    askBeforeLeaving(
      issued ? 'The new keys are not shown again. Leave this page? Copy them first if you have not.' : null,
    );
    return () => askBeforeLeaving(null);
  }, [issued, askBeforeLeaving]);
  const keys = list.data ?? [];
  const mine = operator ? null : signedInKey(keys, bearer);
  const replaced = mine?.state === 'grace';
  const ended = keys.filter((k) => k.state === 'ended');
  const shown = showEnded ? keys : keys.filter((k) => k.state !== 'ended');

  const act = async (doing: string, work: () => Promise<string>) => {
    setBusy(doing);
    setMessage(null);
    try {
      setMessage({ error: false, text: await work() });
    } catch (e) {
      setMessage({ error: true, text: refusal(e) });
    } finally {
      setBusy(null);
      // After a refusal too: what the server holds may have changed meanwhile (another tab, the operator).
      setVersion((v) => v + 1);
    }
  };

  const rotate = () => {
    if (!window.confirm(rotationWarning(operator))) return;
    void act('Making keys…', async () => {
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
    void act('Ending…', async () => {
      await api.send('POST', `${base}/keys/revoke`, { key_prefix: key.key_prefix });
      // What the panel of new keys said of the replaced ones is no longer true.
      setIssued(null);
      return `Ended ${what}.`;
    });
  };

  return (
    <section aria-labelledby="keys-heading">
      <div className="page-head">
        <h1 id="keys-heading">Keys</h1>
        <button type="button" disabled={busy !== null || replaced} onClick={rotate}>
          {busy === 'Making keys…' ? busy : 'Make new keys…'}
        </button>
      </div>
      <p>
        The public key goes in your storefront's pages; the private key is for your own servers and for signing in here.
        Make new ones when a key may have been seen by someone it was not meant for.
      </p>
      {replaced && (
        <p className="notice" role="note">
          You are signed in with a private key that was replaced; it stops working{' '}
          {formatDate(mine?.expires_at ?? null)}. Sign out and sign in with the current private key to make new keys.
        </p>
      )}
      <ActionMessage message={message} />
      {issued && <IssuedKeys issued={issued} operator={operator} />}
      <LoadState loaded={list} what="the keys" />
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
              {shown.map((k) => (
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
                        <button
                          type="button"
                          className="link danger"
                          disabled={busy !== null}
                          onClick={() => revoke(k)}
                        >
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
      {ended.length > 0 && (
        <button type="button" className="link" aria-expanded={showEnded} onClick={() => setShowEnded((v) => !v)}>
          {showEnded ? 'Hide ended keys' : `Show ended keys (${ended.length})`}
        </button>
      )}
    </section>
  );
}

function IssuedKeys({ issued, operator }: { issued: Issued; operator: boolean }) {
  const publicKey = useRef<HTMLElement>(null);
  const privateKey = useRef<HTMLElement>(null);
  return (
    <section className="issued-keys" aria-label="New keys">
      <dl>
        <dt>Public key</dt>
        <dd>
          <code ref={publicKey}>{issued.keys.public}</code>{' '}
          <CopyButton className="link" text={issued.keys.public} source={publicKey} label="Copy the public key" />
        </dd>
        <dt>Private key</dt>
        <dd>
          <code ref={privateKey}>{issued.keys.private}</code>{' '}
          <CopyButton className="link" text={issued.keys.private} source={privateKey} label="Copy the private key" />
        </dd>
      </dl>
      <p>{issuedAdvice(operator, formatDate(issued.previous_keys_expire_at))}</p>
    </section>
  );
}
