import { LoadState } from '../components/LoadState';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CHART_A11Y, ChartFigure, COLORS, TOOLTIP } from '../components/Chart';
import { useConsole } from '../context';
import { useLoad } from '../hooks';
import { money } from './types';

interface Figures {
  impressions: number;
  clicks: number;
  add_to_carts: number;
  orders: number;
  revenue: number;
}
interface Summary {
  days: number;
  currency: string;
  totals: Figures;
  rulesets: (Figures & { ruleset_id: number; name: string | null })[];
  lists: (Figures & { list: string })[];
  widgets: (Figures & { widget_id: number; name: string | null })[];
}

const ctr = (f: Figures) => (f.impressions > 0 ? `${((f.clicks / f.impressions) * 100).toFixed(1)}%` : '—');

/** Revenue of orders attributed to each ruleset and list (by the cart property or a click), over the page's window. */
export function AttributedRevenue({ days }: { days: number }) {
  const { api, shop } = useConsole();
  const loaded = useLoad(
    () => api.get<Summary>(`/shops/${encodeURIComponent(shop.handle)}/attribution?days=${days}`),
    [shop.handle, days],
  );
  const data = loaded.data;
  if (!data) return <LoadState loaded={loaded} what="the attributed revenue" />;
  const rows = [
    ...data.rulesets.map((r) => ({
      ...r,
      name: r.name ? `${r.name} (#${r.ruleset_id})` : `Ruleset #${r.ruleset_id} (deleted)`,
    })),
    ...data.lists.map((l) => ({ ...l, name: `List ${l.list}` })),
  ];
  return (
    <section aria-labelledby="attributed-heading">
      <h2 id="attributed-heading">
        Attributed revenue, last {data.days} days: {money(data.totals.revenue, data.currency)}
      </h2>
      <p className="muted">
        Order lines that carried a recommendation's source in the cart, or that a signed-in customer clicked in a widget
        within the attribution window before ordering. Cancellations and refunds are taken back.
      </p>
      {rows.length === 0 ? (
        <p>
          No attributed orders yet: the widget tracks impressions and clicks and tags add-to-carts once it is on the
          storefront.
        </p>
      ) : (
        <ChartFigure
          title={`Attributed revenue per ruleset and list (${data.currency})`}
          columns={['Source', 'Impressions', 'Clicks', 'CTR', 'Adds to cart', 'Orders', 'Revenue']}
          rows={rows.map((r) => [
            r.name,
            r.impressions,
            r.clicks,
            ctr(r),
            r.add_to_carts,
            r.orders,
            money(r.revenue, data.currency),
          ])}
        >
          <ResponsiveContainer width="100%" height={Math.max(160, rows.length * 28 + 40)}>
            <BarChart
              {...CHART_A11Y}
              data={rows.map((r) => ({
                name: r.name.length > 28 ? `${r.name.slice(0, 27)}…` : r.name,
                revenue: r.revenue,
              }))}
              layout="vertical"
              margin={{ top: 4, right: 16, bottom: 4, left: 8 }}
            >
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" tick={{ fontSize: 11 }} />
              <YAxis type="category" dataKey="name" width={190} tick={{ fontSize: 11 }} />
              <Tooltip {...TOOLTIP} />
              <Bar
                dataKey="revenue"
                name={`Revenue (${data.currency})`}
                fill={COLORS.tertiary}
                isAnimationActive={false}
              />
            </BarChart>
          </ResponsiveContainer>
        </ChartFigure>
      )}
      {data.widgets.length > 0 && (
        <table className="widget-figures">
          <caption>Per widget (the same shoppers' actions, seen by where they happened)</caption>
          <thead>
            <tr>
              <th scope="col">Widget</th>
              <th scope="col">Impressions</th>
              <th scope="col">Clicks</th>
              <th scope="col">CTR</th>
              <th scope="col">Adds to cart</th>
            </tr>
          </thead>
          <tbody>
            {data.widgets.map((w) => (
              <tr key={w.widget_id}>
                <th scope="row">{w.name ?? `Widget #${w.widget_id} (deleted)`}</th>
                <td>{w.impressions}</td>
                <td>{w.clicks}</td>
                <td>{ctr(w)}</td>
                <td>{w.add_to_carts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
