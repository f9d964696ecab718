import { LoadState } from '../components/LoadState';
import { useId, useState } from 'react';
import { ActionMessage, type Said } from '../components/ActionMessage';
import { TableWrap } from '../components/TableWrap';
import { useConsole } from '../context';
import { formatDate, useLoad } from '../hooks';
import {
  customerIdOf,
  emailProblem,
  type ErasureCounts,
  erasureSummary,
  exportFileName,
  isEmptyExport,
  kindLabel,
  type PrivacyRequest,
} from '../privacy/requests';
import { usePageTitle } from '../title';

/** Hands the export over as a JSON file, made in the browser: it is not fetched again. */
function download(request: PrivacyRequest) {
  const blob = new Blob([JSON.stringify(request.export, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(request);
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Customers' requests about their personal data: those from the store platform (applied as they
 * arrive) and those a customer makes to the shop directly, exported or erased here.
 */
export function PrivacyPage() {
  const { api, shop } = useConsole();
  usePageTitle('Privacy');
  const base = `/shops/${encodeURIComponent(shop.handle)}`;
  const list = useLoad(
    () => api.get<{ data: PrivacyRequest[] }>(`${base}/privacy/requests`).then((r) => r.data),
    [base],
    { keepPrevious: true },
  );
  return (
    <section aria-labelledby="privacy-heading">
      <h1 id="privacy-heading">Privacy</h1>
      <p>
        Requests your store platform sends about a customer's data are applied as they arrive and listed below. When a
        customer asks you directly, export or erase their data here. Erasing a customer also removes the exports of
        their data listed here.
      </p>
      <CustomerRequest onDone={list.reload} />
      <h2>Requests of the last 30 days</h2>
      <LoadState loaded={list} what="the privacy requests" />
      {list.data?.length === 0 && <p>No requests in the last 30 days.</p>}
      {list.data && list.data.length > 0 && (
        <TableWrap>
          <table>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Request</th>
                <th scope="col">Customer</th>
                <th scope="col">Their data</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((r) => (
                <tr key={`${r.kind}-${r.id}`}>
                  <td>{formatDate(r.received_at)}</td>
                  <td>{kindLabel(r)}</td>
                  <td>{r.customer_id ?? '—'}</td>
                  <td>
                    {r.export ? (
                      <button type="button" className="link" onClick={() => download(r)}>
                        Download the export of customer {r.customer_id} made {formatDate(r.received_at)}
                      </button>
                    ) : (
                      <span className="muted">None kept</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}

/** One customer's request: an export of what is stored about them, or their erasure (asked first). */
function CustomerRequest({ onDone }: { onDone(): void }) {
  const { api, shop } = useConsole();
  const ids = useId();
  const [idText, setIdText] = useState('');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState<'export' | 'erase' | null>(null);
  const [message, setMessage] = useState<Said | null>(null);
  const customerId = customerIdOf(idText);
  const path = (id: number, suffix = '') =>
    `/shops/${encodeURIComponent(shop.handle)}/customers/${id}${suffix}` +
    (email.trim() ? `?email=${encodeURIComponent(email.trim())}` : '');

  const refuse = (text: string) => setMessage({ error: true, text });
  const run = async (action: 'export' | 'erase') => {
    if (customerId === null)
      return refuse('Enter the customer’s id in your store: a whole number, such as 7 or 6512367.');
    const problem = emailProblem(email);
    if (problem) return refuse(problem);
    if (
      action === 'erase' &&
      !window.confirm(
        `Erase customer ${customerId}? Their customer record and browsing history are deleted, their subscription ` +
          'records lose their personal details, and their orders stay only as anonymous sales. This cannot be undone.',
      )
    )
      return;
    setBusy(action);
    setMessage(null);
    try {
      if (action === 'export') {
        const { request } = await api.send<{ request: PrivacyRequest }>('POST', path(customerId, '/export'));
        if (isEmptyExport(request.export)) {
          refuse(`Nothing is stored about customer ${customerId}: check the id. The empty export is listed below.`);
        } else {
          download(request);
          setMessage({ error: false, text: `The export of customer ${customerId} is downloaded and listed below.` });
        }
      } else {
        const { erased } = await api.send<{ erased: ErasureCounts }>('DELETE', path(customerId));
        setMessage({ error: Object.values(erased).every((n) => !n), text: erasureSummary(customerId, erased) });
        setIdText('');
        setEmail('');
      }
      onDone();
    } catch (e) {
      refuse((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <form
      className="privacy-request"
      aria-labelledby={`${ids}-h`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void run('export');
      }}
    >
      <h2 id={`${ids}-h`}>A customer's request</h2>
      <div className="field">
        <label htmlFor={`${ids}-id`}>Customer id in your store</label>
        <input
          id={`${ids}-id`}
          inputMode="numeric"
          autoComplete="off"
          required
          value={idText}
          aria-invalid={idText.trim() !== '' && customerId === null}
          onChange={(e) => {
            setIdText(e.target.value);
            setMessage(null);
          }}
        />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-email`}>Their e-mail address (optional)</label>
        <input
          id={`${ids}-email`}
          type="email"
          autoComplete="off"
          aria-describedby={`${ids}-email-hint`}
          aria-invalid={emailProblem(email) !== null}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setMessage(null);
          }}
        />
        <p id={`${ids}-email-hint`} className="hint">
          Also finds what they did before signing in under an address your store no longer holds.
        </p>
      </div>
      <button type="submit" disabled={busy !== null}>
        {busy === 'export' ? 'Exporting…' : 'Export their data'}
      </button>{' '}
      <button type="button" className="danger" disabled={busy !== null} onClick={() => void run('erase')}>
        {busy === 'erase' ? 'Erasing…' : 'Erase them…'}
      </button>
      <ActionMessage message={message} />
    </form>
  );
}
