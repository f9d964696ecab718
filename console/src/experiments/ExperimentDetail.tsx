import { LoadState } from '../components/LoadState';
import { useId, useState } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CHART_A11Y, ChartFigure, COLORS, TOOLTIP } from '../components/Chart';
import { useConsole } from '../context';
import { formatDate, useLoad } from '../hooks';
import {
  chance,
  enoughToCompare,
  MIN_ORDERS,
  MIN_VISITORS,
  money,
  moneyFor,
  percentFor,
  type ArmResult,
  type Experiment,
  type Series,
} from './types';
import { TableWrap } from '../components/TableWrap';
import { refusal } from '../problem-words';

const LINE_COLORS = [COLORS.primary, COLORS.secondary, COLORS.tertiary, COLORS.muted, '#8e44ad', '#c0392b'];

/** One experiment: each arm's figures with their intervals, the chart over time, and the stop. */
export function ExperimentDetail({ experiment, onChanged }: { experiment: Experiment; onChanged(): void }) {
  const { api, shop } = useConsole();
  const base = `/shops/${encodeURIComponent(shop.handle)}/experiments/${experiment.id}`;
  const results = useLoad(() => api.get<{ arms: ArmResult[] }>(`${base}/results`), [base, experiment.status]);
  const series = useLoad(() => api.get<Series>(`${base}/series`), [base, experiment.status]);
  const headingId = useId();
  const arms = results.data?.arms ?? [];
  const fewVisitors = arms.length > 0 && arms.some((a) => a.visitors < 1000);
  const first = arms[0];
  const tooEarly = first !== undefined && arms.slice(1).some((a) => !enoughToCompare(a, first));
  return (
    <section aria-labelledby={headingId} className="experiment">
      <h2 id={headingId}>{experiment.name}</h2>
      <p className="muted">
        {experiment.status === 'running'
          ? 'Running'
          : `Stopped ${formatDate(experiment.stopped_at)}, winner: ${experiment.winner ?? 'none (the ruleset itself)'}`}
        {' · '}ruleset #{experiment.ruleset_id} · started {formatDate(experiment.created_at)}
      </p>
      <LoadState loaded={results} what="the experiment's figures" />
      {arms.length > 0 && (
        <TableWrap>
          <table>
            <caption>Figures per arm with 95% intervals; chance to beat the first arm ({arms[0]!.name})</caption>
            <thead>
              <tr>
                <th scope="col">Arm</th>
                <th scope="col">Served by</th>
                <th scope="col">Visitors</th>
                <th scope="col">CTR</th>
                <th scope="col">Add-to-cart rate</th>
                <th scope="col">Orders</th>
                <th scope="col">Conversion</th>
                <th scope="col">Revenue</th>
                <th scope="col">Revenue per visitor</th>
                <th scope="col">Beats {arms[0]!.name}: conversion</th>
                <th scope="col">Beats {arms[0]!.name}: revenue</th>
              </tr>
            </thead>
            <tbody>
              {arms.map((a, i) => {
                const servedBy = experiment.arms[i]?.ruleset_id;
                return (
                  <tr key={a.name}>
                    <th scope="row">{a.name}</th>
                    <td>{servedBy === null || servedBy === undefined ? 'Empty control' : `#${servedBy}`}</td>
                    <td>{a.visitors.toLocaleString()}</td>
                    <td>{percentFor(a, a.ctr)}</td>
                    <td>{percentFor(a, a.add_to_cart_rate)}</td>
                    <td>{a.orders}</td>
                    <td>{percentFor(a, a.conversion)}</td>
                    <td>{money(a.revenue, shop.currency)}</td>
                    <td>{moneyFor(a, a.revenue_per_visitor, shop.currency)}</td>
                    <td>
                      {i === 0 ? '—' : enoughToCompare(a, first!) ? chance(a.p_beats_first?.conversion) : 'Too early'}
                    </td>
                    <td>
                      {i === 0
                        ? '—'
                        : enoughToCompare(a, first!)
                          ? chance(a.p_beats_first?.revenue_per_visitor)
                          : 'Too early'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      )}
      {tooEarly && (
        <p className="note" role="note">
          Too early to compare: intervals show once an arm has {MIN_VISITORS} visitors, and the chance to beat{' '}
          {first!.name} once both arms have and they have {MIN_ORDERS} orders between them.
        </p>
      )}
      {fewVisitors && (
        <p className="note" role="note">
          An arm has fewer than 1,000 visitors: its figures still move a lot. Decide how many visitors you need before
          you start, and stop then.
        </p>
      )}
      {series.error !== null && <LoadState loaded={series} what="the experiment's figures over time" />}
      {series.data && series.data.days.length > 0 && <ConversionChart series={series.data} />}
      {experiment.status === 'running' && <StopForm experiment={experiment} base={base} onStopped={onChanged} />}
    </section>
  );
}

function ConversionChart({ series }: { series: Series }) {
  const data = series.days.map((d) =>
    Object.fromEntries([
      ['day', d.day],
      ...series.arms.map((name, i) => [
        name,
        d.arms[i]?.conversion === null ? null : Number(((d.arms[i]?.conversion ?? 0) * 100).toFixed(3)),
      ]),
    ]),
  );
  return (
    <ChartFigure
      title="Conversion over time (cumulative, %)"
      columns={['Day', ...series.arms.map((a) => `${a}: visitors`), ...series.arms.map((a) => `${a}: conversion`)]}
      rows={series.days.map((d) => [
        d.day,
        ...d.arms.map((a) => a.visitors),
        ...d.arms.map((a) => (a.conversion === null ? '—' : `${(a.conversion * 100).toFixed(2)}%`)),
      ])}
    >
      <ResponsiveContainer width="100%" height={260}>
        <LineChart {...CHART_A11Y} data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="day" tick={{ fontSize: 11 }} minTickGap={24} />
          <YAxis tick={{ fontSize: 11 }} unit="%" />
          <Tooltip {...TOOLTIP} />
          <Legend />
          {series.arms.map((name, i) => (
            <Line
              key={name}
              type="monotone"
              dataKey={name}
              stroke={LINE_COLORS[i % LINE_COLORS.length]}
              dot={false}
              isAnimationActive={false}
              connectNulls
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

function StopForm({ experiment, base, onStopped }: { experiment: Experiment; base: string; onStopped(): void }) {
  const { api } = useConsole();
  const id = useId();
  const [winner, setWinner] = useState('');
  const [error, setError] = useState<string | null>(null);
  const stop = async () => {
    const arm = experiment.arms.find((a) => a.name === winner);
    const label =
      winner === ''
        ? `no winner: ruleset #${experiment.ruleset_id} itself serves every visitor again`
        : arm?.ruleset_id === null
          ? `winner ${winner}, the empty control: ruleset #${experiment.ruleset_id} itself serves every visitor again`
          : `winner ${winner}: ruleset #${arm?.ruleset_id} serves every visitor ` +
            `of ruleset #${experiment.ruleset_id} from now on`;
    const consequence =
      'The split ends for good: a stopped experiment cannot be restarted, and its figures stop growing.';
    if (!window.confirm(`Stop “${experiment.name}” with ${label}?\n\n${consequence}`)) return;
    try {
      await api.send('POST', `${base}/stop`, { winner: winner === '' ? null : winner });
      onStopped();
    } catch (e) {
      setError(refusal(e));
    }
  };
  return (
    <form
      className="stop"
      onSubmit={(e) => {
        e.preventDefault();
        void stop();
      }}
    >
      <span className="field inline">
        <label htmlFor={id}>Winner</label>
        <select id={id} value={winner} onChange={(e) => setWinner(e.target.value)}>
          <option value="">No winner (keep the ruleset)</option>
          {experiment.arms.map((a) => (
            <option key={a.name} value={a.name}>
              {a.name}
            </option>
          ))}
        </select>
      </span>
      <button type="submit">Stop the experiment</button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
