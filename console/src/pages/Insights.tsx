import { LoadState } from '../components/LoadState';
import { useId, useState } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { CHART_A11Y, ChartFigure, COLORS, TOOLTIP } from '../components/Chart';
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
  conversion: {
    shop_rate: number;
    k: number;
    products: { product_id: number; title: string; views: number; purchases: number; estimate: number }[];
  };
}

const WINDOWS = [7, 30, 90];
const short = (title: string) => (title.length > 28 ? `${title.slice(0, 27)}…` : title);
const percent = (rate: number) => `${(rate * 100).toFixed(2)}%`;

/**
 * Trending and top sellers, events per day, the smart-sort
 * conversion estimates and the revenue attributed to each ruleset.
 */
export function InsightsPage() {
  const { api, shop } = useConsole();
  usePageTitle('Insights');
  const [days, setDays] = useState(30);
  const daysId = useId();
  const loaded = useLoad(
    () =>
      api
        .get<{ data: Insights }>(`/shops/${encodeURIComponent(shop.handle)}/insights?days=${days}`)
        .then((r) => r.data),
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
      <LoadState loaded={loaded} what="the insights" />
      {data && <ConversionWarning conversion={data.conversion} />}
      {data && (
        <div className="chart-grid">
          <ChartFigure
            title={`Events per day, last ${data.days} days`}
            columns={['Date', 'Views', 'Adds to cart', 'Removals']}
            rows={withToday(data.events_per_day).map((d) => [d.date, d.viewed, d.added, d.removed])}
          >
            <p className="muted">
              Events a day in the shop's time zone ({shop.timezone}). Today is counted up to now, so it reads low until
              the day ends.
            </p>
            <ResponsiveContainer width="100%" height={260}>
              <LineChart
                {...CHART_A11Y}
                data={withToday(data.events_per_day)}
                margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
              >
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="date" tick={{ fontSize: 11 }} minTickGap={24} />
                <YAxis
                  allowDecimals={false}
                  tick={{ fontSize: 11 }}
                  label={{ value: 'events a day', angle: -90, position: 'insideLeft', fontSize: 11 }}
                />
                <Tooltip {...TOOLTIP} />
                <Legend />
                <Line
                  type="monotone"
                  dataKey="viewed"
                  name="Views"
                  stroke={COLORS.primary}
                  dot={false}
                  isAnimationActive={false}
                />
                <Line
                  type="monotone"
                  dataKey="added"
                  name="Adds to cart"
                  stroke={COLORS.secondary}
                  dot={false}
                  isAnimationActive={false}
                />
                <Line
                  type="monotone"
                  dataKey="removed"
                  name="Removals"
                  stroke={COLORS.muted}
                  dot={false}
                  isAnimationActive={false}
                />
              </LineChart>
            </ResponsiveContainer>
          </ChartFigure>

          <ChartFigure
            title="Trending now (orders, recent ones counting more, over the shop's trending window)"
            columns={['Product', 'Score']}
            rows={data.trending.map((p) => [p.title, p.score.toFixed(2)])}
          >
            <HorizontalBars
              data={data.trending.map((p) => ({ name: short(p.title), value: Number(p.score.toFixed(2)) }))}
              color={COLORS.primary}
              label="Score"
              unit=" orders"
            />
          </ChartFigure>

          <ChartFigure
            title={`Top sellers, last ${data.days} days (units)`}
            columns={['Product', 'Units']}
            rows={data.top_sellers.map((p) => [p.title, p.units])}
          >
            <HorizontalBars
              data={data.top_sellers.map((p) => ({ name: short(p.title), value: p.units }))}
              color={COLORS.tertiary}
              label="Units"
              unit=" units"
            />
          </ChartFigure>

          <ChartFigure
            title={
              'Estimated conversion of viewed products, last 30 days ' +
              `(%; shop average ${percent(data.conversion.shop_rate)})`
            }
            columns={['Product', 'Views', 'Purchases', 'Estimate']}
            rows={data.conversion.products.map((p) => [p.title, p.views, p.purchases, percent(p.estimate)])}
          >
            <HorizontalBars
              data={data.conversion.products.map((p) => ({
                name: short(p.title),
                value: Number((p.estimate * 100).toFixed(2)),
              }))}
              color={COLORS.secondary}
              label="Estimate (%)"
              unit="%"
            />
          </ChartFigure>
        </div>
      )}
      {data && <AttributedRevenue days={data.days} />}
    </section>
  );
}

/** Today's row is marked as the partial day it is, so its lower count does not read as a drop. */
function withToday<T extends { date: string }>(days: T[]): T[] {
  return days.map((d, i) => (i === days.length - 1 ? { ...d, date: `${d.date} (today, so far)` } : d));
}

/**
 * Said only when a figure really reads above 100%: the shop's rate, or an estimate. Products that
 * sold more often than they were viewed are named as such, without claiming more.
 */
function ConversionWarning({ conversion }: { conversion: Insights['conversion'] }) {
  const over = conversion.shop_rate > 1 || conversion.products.some((p) => p.estimate > 1);
  const oversold = conversion.products.filter((p) => p.purchases > p.views).length;
  if (!over && oversold === 0) return null;
  return (
    <p className="note" role="note">
      {over
        ? 'Conversion reads above 100%: the shop records fewer product views than purchases. '
        : `${oversold} of these products sold more often than they were viewed. `}
      Views are counted only from pages that send events (the widget does), so these figures rank products the way smart
      sort does rather than measure them exactly.
    </p>
  );
}

function HorizontalBars({
  data,
  color,
  label,
  unit,
}: {
  data: { name: string; value: number }[];
  color: string;
  label: string;
  unit: string;
}) {
  if (data.length === 0) return <p className="muted">No data in this window.</p>;
  return (
    <ResponsiveContainer width="100%" height={Math.max(160, data.length * 28 + 40)}>
      <BarChart {...CHART_A11Y} data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" tick={{ fontSize: 11 }} unit={unit} />
        <YAxis type="category" dataKey="name" width={170} tick={{ fontSize: 11 }} />
        <Tooltip {...TOOLTIP} formatter={(value) => `${value}${unit}`} />
        <Bar dataKey="value" name={label} fill={color} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
