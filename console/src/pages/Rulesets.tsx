import { useState } from 'react';
import { Announcer } from '../components/Announcer';
import { useConsole } from '../context';
import { focusSoon, formatDate, useLoad } from '../hooks';
import { usePageTitle } from '../title';
import type { Ruleset } from '../types';

/** The shop's rulesets: open, create, duplicate, delete. */
export function RulesetsPage({ navigate }: { navigate(to: string): void }) {
  const { api, shop } = useConsole();
  usePageTitle('Rulesets');
  const base = `/shops/${encodeURIComponent(shop.handle)}/rulesets`;
  const list = useLoad(() => api.get<{ data: Ruleset[] }>(base).then((r) => r.data), [base]);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  async function duplicate(ruleset: Ruleset) {
    try {
      const { id: _id, version: _v, created_at: _c, updated_at: _u, ...document } = ruleset;
      const copy = await api.send<{ ruleset: Ruleset }>('POST', base, { ...document, name: `${ruleset.name} (copy)`.slice(0, 200) });
      setMessage({ kind: 'ok', text: `Created ${copy.ruleset.name} as ruleset ${copy.ruleset.id}.` });
      list.reload();
    } catch (error) {
      setMessage({ kind: 'error', text: (error as Error).message });
    }
  }

  async function remove(ruleset: Ruleset) {
    if (!window.confirm(`Delete ruleset ${ruleset.id} “${ruleset.name}”? Widgets that use it will show nothing.`)) return;
    try {
      await api.send('DELETE', `${base}/${ruleset.id}`);
      setMessage({ kind: 'ok', text: `Deleted ruleset ${ruleset.id}.` });
      list.reload();
      focusSoon(['#rulesets-heading']);
    } catch (error) {
      setMessage({ kind: 'error', text: (error as Error).message });
    }
  }

  return (
    <section aria-labelledby="rulesets-heading">
      <div className="page-head">
        <h1 id="rulesets-heading" tabIndex={-1}>
          Rulesets
        </h1>
        <button type="button" className="primary" onClick={() => navigate('/rulesets/new')}>
          New ruleset
        </button>
      </div>
      <p className="muted">
        A ruleset answers <code>/api/v1/custom/id/&lt;id&gt;</code>: its rules run top to bottom and return products.
      </p>
      <Announcer message={message} />
      {list.error && (
        <p className="error" role="alert">
          {list.error}
        </p>
      )}
      {list.loading && !list.data && <p className="muted">Loading…</p>}
      {list.data && list.data.length === 0 && <p>No rulesets yet. Create one to power a widget.</p>}
      {list.data && list.data.length > 0 && (
        <div className="table-wrap">
          <table className="stack">
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Name</th>
                <th scope="col">Enabled</th>
                <th scope="col">Rules</th>
                <th scope="col">Last change</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((ruleset) => (
                <tr key={ruleset.id}>
                  <td data-label="Id">{ruleset.id}</td>
                  <td>
                    <a href={`#/rulesets/${ruleset.id}`}>{ruleset.name}</a>
                  </td>
                  <td data-label="Enabled">{ruleset.enabled === false ? 'No' : 'Yes'}</td>
                  <td data-label="Rules">{ruleset.rules.length}</td>
                  <td data-label="Last change">{formatDate(ruleset.updated_at)}</td>
                  <td className="actions">
                    <button type="button" onClick={() => void duplicate(ruleset)} aria-label={`Duplicate ${ruleset.name}`}>
                      Duplicate
                    </button>
                    <button type="button" className="danger" onClick={() => void remove(ruleset)} aria-label={`Delete ${ruleset.name}`}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
