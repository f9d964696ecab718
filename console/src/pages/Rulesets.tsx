import { LoadState } from '../components/LoadState';
import { useState } from 'react';
import { Announcer } from '../components/Announcer';
import { useConsole } from '../context';
import { focusSoon, formatDate, useLoad } from '../hooks';
import { useExperimentsByRuleset } from '../experiments/use-running';
import { money } from '../experiments/types';
import { usePageTitle } from '../title';
import type { Ruleset } from '../types';
import type { Experiment } from '../experiments/types';
import { TableWrap } from '../components/TableWrap';
import { useOneAtATime } from '../one-at-a-time';

/** The shop's rulesets: open, create, duplicate, delete. */
export function RulesetsPage({ navigate }: { navigate(to: string): void }) {
  const { api, shop } = useConsole();
  usePageTitle('Rulesets');
  const base = `/shops/${encodeURIComponent(shop.handle)}/rulesets`;
  const list = useLoad(() => api.get<{ data: Ruleset[] }>(base).then((r) => r.data), [base]);
  const experiments = useExperimentsByRuleset();
  const earnings = useLoad(
    () =>
      api
        .get<{ currency: string; rulesets: { ruleset_id: number; orders: number; revenue: number }[] }>(
          `/shops/${encodeURIComponent(shop.handle)}/attribution?days=30`,
        )
        .then((r) => ({ currency: r.currency, by: new Map(r.rulesets.map((x) => [x.ruleset_id, x])) })),
    [shop.handle],
  );
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  const [copying, oneAtATime] = useOneAtATime();
  async function duplicate(ruleset: Ruleset) {
    try {
      const { id: _id, version: _v, created_at: _c, updated_at: _u, ...document } = ruleset;
      const copy = await api.send<{ ruleset: Ruleset }>('POST', base, {
        ...document,
        name: `${ruleset.name} (copy)`.slice(0, 200),
      });
      setMessage({ kind: 'ok', text: `Created ${copy.ruleset.name} as ruleset ${copy.ruleset.id}.` });
      list.reload();
    } catch (error) {
      setMessage({ kind: 'error', text: (error as Error).message });
    }
  }

  async function remove(ruleset: Ruleset) {
    const question =
      `Delete ruleset ${ruleset.id} “${ruleset.name}”? Storefront requests for it get nothing from then on. ` +
      '(While a widget shows it or a running experiment splits it, it cannot be deleted: you are told which.)';
    if (!window.confirm(question)) return;
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
      <LoadState loaded={list} what="rulesets" />
      {earnings.error !== null && <LoadState loaded={earnings} what="what each ruleset earned" />}
      {list.data && list.data.length === 0 && <p>No rulesets yet. Create one to power a widget.</p>}
      {list.data && list.data.length > 0 && (
        <TableWrap>
          <table className="stack">
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Name</th>
                <th scope="col">Enabled</th>
                <th scope="col">Rules</th>
                <th scope="col">Last change</th>
                <th scope="col">Experiment</th>
                <th scope="col">Earned, last 30 days</th>
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
                  <td data-label="Experiment">
                    <ExperimentCell experiment={experiments?.get(ruleset.id ?? 0)} />
                  </td>
                  <td data-label="Earned, last 30 days">
                    {earnings.data ? earned(earnings.data.by.get(ruleset.id ?? 0), earnings.data.currency) : '…'}
                  </td>
                  <td className="actions">
                    <button
                      type="button"
                      onClick={() => void oneAtATime(() => duplicate(ruleset))}
                      disabled={copying}
                      aria-label={`Duplicate ${ruleset.name}`}
                    >
                      Duplicate
                    </button>
                    <button
                      type="button"
                      className="danger"
                      onClick={() => void remove(ruleset)}
                      aria-label={`Delete ${ruleset.name}`}
                    >
                      Delete
                    </button>
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

function ExperimentCell({ experiment }: { experiment: Experiment | undefined }) {
  if (!experiment) return <>—</>;
  return (
    <a href="#/experiments">
      {experiment.status === 'running'
        ? `Running: ${experiment.name}`
        : `Stopped: ${experiment.name}${experiment.winner ? ` (winner ${experiment.winner})` : ''}`}
    </a>
  );
}

/** Attributed revenue and orders of a ruleset; "nothing yet" rather than a bare zero. */
function earned(figures: { orders: number; revenue: number } | undefined, currency: string): string {
  if (!figures || figures.orders === 0) return 'Nothing yet';
  return `${money(figures.revenue, currency)} from ${figures.orders} order${figures.orders === 1 ? '' : 's'}`;
}
