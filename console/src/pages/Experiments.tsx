import { LoadState } from '../components/LoadState';
import { useState } from 'react';
import { useConsole } from '../context';
import { formatDate, useLoad } from '../hooks';
import { ExperimentDetail } from '../experiments/ExperimentDetail';
import { NewExperiment } from '../experiments/NewExperiment';
import type { Experiment } from '../experiments/types';
import { usePageTitle } from '../title';
import { TableWrap } from '../components/TableWrap';

/** Experiments: start one, watch each arm's figures over time, stop it with a winner. */
export function ExperimentsPage() {
  const { api, shop } = useConsole();
  usePageTitle('Experiments');
  const base = `/shops/${encodeURIComponent(shop.handle)}`;
  const [version, setVersion] = useState(0);
  const list = useLoad(
    () => api.get<{ data: Experiment[] }>(`${base}/experiments`).then((r) => r.data),
    [base, version],
  );
  const rulesets = useLoad(
    () => api.get<{ data: { id: number; name: string; enabled: boolean }[] }>(`${base}/rulesets`).then((r) => r.data),
    [base],
  );
  const [chosen, setChosen] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const experiments = list.data ?? [];
  const current =
    experiments.find((e) => e.id === chosen) ?? experiments.find((e) => e.status === 'running') ?? experiments[0];
  return (
    <section aria-labelledby="experiments-heading">
      <div className="page-head">
        <h1 id="experiments-heading">Experiments</h1>
        <button type="button" onClick={() => setCreating((c) => !c)} aria-expanded={creating}>
          {creating ? 'Close the form' : 'New experiment'}
        </button>
      </div>
      <LoadState loaded={list} what="the experiments" />
      {rulesets.error !== null && <LoadState loaded={rulesets} what="your rulesets" />}
      {creating && rulesets.data && list.data && (
        <NewExperiment
          rulesets={rulesets.data}
          underTest={new Set(experiments.filter((e) => e.status === 'running').map((e) => e.ruleset_id))}
          onCreated={(e) => {
            setCreating(false);
            setChosen(e.id);
            setVersion((v) => v + 1);
          }}
        />
      )}
      {list.data && experiments.length === 0 && !creating && (
        <p>No experiments yet. Start one to test a ruleset against another, or against no recommendations at all.</p>
      )}
      {experiments.length > 0 && (
        <TableWrap>
          <table>
            <thead>
              <tr>
                <th scope="col">Experiment</th>
                <th scope="col">Ruleset</th>
                <th scope="col">Arms</th>
                <th scope="col">Status</th>
                <th scope="col">Started</th>
              </tr>
            </thead>
            <tbody>
              {experiments.map((e) => (
                <tr key={e.id} aria-current={e.id === current?.id ? 'true' : undefined}>
                  <td>
                    <button type="button" className="link" onClick={() => setChosen(e.id)}>
                      {e.name}
                    </button>
                  </td>
                  <td>{rulesets.data?.find((r) => r.id === e.ruleset_id)?.name ?? `#${e.ruleset_id}`}</td>
                  <td>{e.arms.map((a) => a.name).join(', ')}</td>
                  <td>{e.status === 'running' ? 'Running' : `Stopped${e.winner ? `, winner ${e.winner}` : ''}`}</td>
                  <td>{formatDate(e.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {current && (
        <ExperimentDetail
          key={`${current.id}-${current.status}`}
          experiment={current}
          onChanged={() => setVersion((v) => v + 1)}
        />
      )}
    </section>
  );
}
