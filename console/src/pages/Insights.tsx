import { useId, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CHART_A11Y, ChartFigure, COLORS } from '../components/Chart';
import { useConsole } from '../context';
import { AttributedRevenue } from '../experiments/AttributedRevenue';
import { useLoad } from '../hooks';
import { usePageTitle } from '../title';

interface RankedProduct {
  product_id: number;
  title: string;
  handle: string;
  image: string | null;
}
interface Insights {
  days: number;
  currency: string;
  trending: (RankedProduct & { score: number })[];
  top_sellers: (RankedProduct & { units: number })[];
  events_per_day: { date: string; viewed: number; added: number; removed: number }[];
  conversion: { shop_rate: number; k: number; products: { product_id: number; title: string; views: number; purchases: number; estimate: number }[] };
}

const WINDOWS = [7, 30, 90];
const short = (title: string) => (title.length > 28 ? `${title.slice(0, 27)}…` : title);
const percent = (rate: number) => `${(rate * 100).toFixed(2)}%`;

/** Trending and top sellers, events per day, the smart-sort conversion estimates and the revenue attributed to each ruleset. */
export function InsightsPage() {
  const { api, shop } = useConsole();
  usePageTitle('Insights');
  const [days, setDays] = useState(30);
  const daysId = useId();
  const loaded = useLoad(
    () => api.get<{ data: Insights }>(`/shops/${encodeURIComponent(shop.handle)}/insights?days=${days}`).then((r) => r.data),
    [shop.handle, days],
  );
  const data = loaded.data;
  return (
    <section aria-labelledby="insights-heading">
      <div className="page-head">
        <h1 id="insights-heading">Insights</h1>
        <span className="field inline">
          <label htmlFor={daysId}>Window</label>
          <select id={daysId} value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {WINDOWS.map((d) => (
              <option key={d} value={d}>
                last {d} days
              </option>
            ))}
          </select>
        </span>
      </div>
      {loaded.error && (
        <p className="error" role="alert">
          {loaded.error}
        </p>
      )}
      {loaded.loading && !data && <p className="muted">Loading…</p>}
      {data && (data.conversion.shop_rate > 1 || data.conversion.products.some((p) => p.purchases > p.views)) && (
        <p className="note" role="note">
          More purchases than recorded product views: views are only counted from pages that send events (the widget does), so the conversion estimates read
          above 100%. They still rank products the way smart sort does.
        </p>
      )}
      {data && (
        <div className="chart-grid">
          <ChartFigure
            title={`Events per day, last ${data.days} days`}
            columns={['Date', 'Views', 'Adds to cart', 'Removals']}
            rows={data.events_per_day.map((d) => [d.date, d.viewed, d.added, d.removed])}
          >
            <ResponsiveContainer width="100%" height={260}>
              <LineChart {...CHART_A11Y} data={data.events_per_day} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="date" tick={{ fontSize: 11 }} minTickGap={24} />
                <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
                <Tooltip />
                <Legend />
                <Line type="monotone" dataKey="viewed" name="Views" stroke={COLORS.primary} dot={false} isAnimationActive={false} />
                <Line type="monotone" dataKey="added" name="Adds to cart" stroke={COLORS.secondary} dot={false} isAnimationActive={false} />
                <Line type="monotone" dataKey="removed" name="Removals" stroke={COLORS.muted} dot={false} isAnimationActive={false} />
              </LineChart>
            </ResponsiveContainer>
          </ChartFigure>

          <ChartFigure
            title="Trending now (decayed score, the shop's trending window)"
            columns={['Product', 'Score']}
            rows={data.trending.map((p) => [p.title, p.score.toFixed(2)])}
          >
            <HorizontalBars
              data={data.trending.map((p) => ({ name: short(p.title), value: Number(p.score.toFixed(2)) }))}
              color={COLORS.primary}
              label="Score"
            />
          </ChartFigure>

          <ChartFigure
            title={`Top sellers, last ${data.days} days (units)`}
            columns={['Product', 'Units']}
            rows={data.top_sellers.map((p) => [p.title, p.units])}
          >
            <HorizontalBars data={data.top_sellers.map((p) => ({ name: short(p.title), value: p.units }))} color={COLORS.tertiary} label="Units" />
          </ChartFigure>

          <ChartFigure
            title={`Smart-sort conversion estimates, last 30 days (shop rate ${percent(data.conversion.shop_rate)}, k = ${data.conversion.k})`}
            columns={['Product', 'Views', 'Purchases', 'Estimate']}
            rows={data.conversion.products.map((p) => [p.title, p.views, p.purchases, percent(p.estimate)])}
          >
            <HorizontalBars
              data={data.conversion.products.map((p) => ({ name: short(p.title), value: Number((p.estimate * 100).toFixed(2)) }))}
              color={COLORS.secondary}
              label="Estimate (%)"
            />
          </ChartFigure>
        </div>
      )}
      {data && <AttributedRevenue days={data.days} />}
    </section>
  );
}

function HorizontalBars({ data, color, label }: { data: { name: string; value: number }[]; color: string; label: string }) {
  if (data.length === 0) return <p className="muted">No data in this window.</p>;
  return (
    <ResponsiveContainer width="100%" height={Math.max(160, data.length * 28 + 40)}>
      <BarChart {...CHART_A11Y} data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" tick={{ fontSize: 11 }} />
        <YAxis type="category" dataKey="name" width={170} tick={{ fontSize: 11 }} />
        <Tooltip />
        <Bar dataKey="value" name={label} fill={color} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
