import { LoadState } from '../components/LoadState';
import { useEffect, useId, useState } from 'react';
import type { BillingProviderSettings } from '../../../src/domain/billing/types.js';
import { ApiError } from '../api';
import { refusal } from '../problem-words';
import { TokenStorageNotice } from '../components/TokenStorageNotice';
import { WebhookSecrets } from '../components/WebhookSecrets';
import { useConsole } from '../context';
import { useLoad } from '../hooks';
import { usePageTitle } from '../title';

const VERSIONS = ['2021-11'];

/**
 * The shop's billing provider: Rebound's own ledger, or the subscription platform's API. The API
 * token is write-only: the page says whether one is stored and never shows it.
 */
export function BillingSettingsPage() {
  const { api, shop, canStoreTokens } = useConsole();
  usePageTitle('Billing');
  const path = `/shops/${encodeURIComponent(shop.handle)}/billing/provider`;
  const current = useLoad(() => api.get<BillingProviderSettings>(path), [path]);
  const [type, setType] = useState<'ledger' | 'remote'>('ledger');
  const [baseUrl, setBaseUrl] = useState('');
  const [version, setVersion] = useState(VERSIONS[0]!);
  const [token, setToken] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const [problem, setProblem] = useState<{ field: string | null; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = {
    type: useId(),
    url: useId(),
    version: useId(),
    token: useId(),
    tokenHelp: useId(),
    urlError: useId(),
    tokenError: useId(),
  };

  useEffect(() => {
    if (!current.data) return;
    setType(current.data.type);
    setBaseUrl(current.data.base_url ?? '');
    setVersion(current.data.api_version ?? VERSIONS[0]!);
  }, [current.data]);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setSaved(null);
    setProblem(null);
    try {
      const body =
        type === 'ledger'
          ? { type }
          : {
              type,
              base_url: baseUrl.trim(),
              api_version: version,
              ...(token.trim() ? { api_token: token.trim() } : {}),
            };
      await api.send<BillingProviderSettings>('PUT', path, body);
      setToken('');
      setSaved(
        type === 'ledger'
          ? "Saved: this shop's subscriptions are kept in Rebound's ledger."
          : "Saved: this shop's subscriptions are read from and written to the billing provider.",
      );
      current.reload();
    } catch (error) {
      const field = error instanceof ApiError ? (error.problems[0]?.path ?? null) : null;
      setProblem({
        field,
        message: refusal(error, { base_url: 'Base URL', api_token: 'API token', api_version: 'API version' }),
      });
    } finally {
      setBusy(false);
    }
  }

  const stored = current.data?.type === 'remote' && current.data.api_token_set;
  const origin = window.location.origin;
  return (
    <section aria-labelledby="billing-heading">
      <h1 id="billing-heading">Billing provider</h1>
      <p className="muted">
        Where this shop&apos;s subscriptions live: Rebound&apos;s own ledger (loaded through the admin API and
        webhooks), or the subscription platform&apos;s REST API.
      </p>
      <LoadState loaded={current} what="the billing settings" />
      {current.data && (
        <form className="settings-form" onSubmit={save} noValidate>
          <div className="field">
            <label htmlFor={ids.type} className="field-label">
              Provider
            </label>
            <select id={ids.type} value={type} onChange={(e) => setType(e.target.value as 'ledger' | 'remote')}>
              <option value="ledger">Ledger (Rebound&apos;s own tables)</option>
              <option value="remote">Remote (the billing platform&apos;s API)</option>
            </select>
          </div>
          {type === 'remote' && (
            <>
              {!canStoreTokens && <TokenStorageNotice what="a remote billing provider" />}
              <div className="field">
                <label htmlFor={ids.url} className="field-label">
                  Base URL
                </label>
                <input
                  id={ids.url}
                  type="url"
                  inputMode="url"
                  placeholder="https://api.rechargeapps.com"
                  value={baseUrl}
                  onChange={(e) => setBaseUrl(e.target.value)}
                  aria-invalid={problem?.field === 'base_url' || undefined}
                  aria-describedby={problem?.field === 'base_url' ? ids.urlError : undefined}
                />
                {problem?.field === 'base_url' && (
                  <p id={ids.urlError} className="error">
                    {problem.message}
                  </p>
                )}
              </div>
              <div className="field">
                <label htmlFor={ids.version} className="field-label">
                  API version
                </label>
                <select id={ids.version} value={version} onChange={(e) => setVersion(e.target.value)}>
                  {VERSIONS.map((v) => (
                    <option key={v} value={v}>
                      {v}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={ids.token} className="field-label">
                  API token
                </label>
                <input
                  id={ids.token}
                  type="password"
                  autoComplete="off"
                  value={token}
                  onChange={(e) => setToken(e.target.value)}
                  placeholder={stored ? 'Stored — leave empty to keep it' : ''}
                  aria-invalid={problem?.field === 'api_token' || undefined}
                  aria-describedby={[ids.tokenHelp, problem?.field === 'api_token' ? ids.tokenError : '']
                    .filter(Boolean)
                    .join(' ')}
                />
                <p id={ids.tokenHelp} className="muted">
                  {stored
                    ? 'A token is stored (encrypted). It is never shown; type a new one to replace it.'
                    : 'Stored encrypted; it is never shown again.'}
                </p>
                {problem?.field === 'api_token' && (
                  <p id={ids.tokenError} className="error">
                    {problem.message}
                  </p>
                )}
              </div>
            </>
          )}
          <div>
            <button type="submit" className="primary" disabled={busy || (type === 'remote' && !canStoreTokens)}>
              {busy ? 'Saving…' : 'Save'}
            </button>
          </div>
          <p role="status" className="ok">
            {saved ?? ''}
          </p>
          {problem && problem.field !== 'base_url' && problem.field !== 'api_token' && (
            <p className="error" role="alert">
              {problem.message}
            </p>
          )}
        </form>
      )}
      <h2>Webhooks</h2>
      <p>Point both platforms at Rebound, and set the secret each one signs its webhooks with below:</p>
      <ul className="webhook-addresses">
        <li>
          Storefront: <code>{`${origin}/webhooks/shop/${shop.handle}`}</code>
        </li>
        <li>
          Billing: <code>{`${origin}/webhooks/billing/${shop.handle}`}</code>
        </li>
      </ul>
      <p className="muted">
        Each platform shows its secret where the webhook is set up; paste it here (at least 16 characters).
      </p>
      <WebhookSecrets />
    </section>
  );
}
