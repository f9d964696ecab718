import { formatMoney } from '../catalog/money.js';
import {
  mean,
  probabilityBeatsMean,
  probabilityBeatsProportion,
  proportion,
  ratePerVisitor,
  type Estimate,
} from './stats.js';
import type { Experiment } from './types.js';

/**
 * A day of an arm's figures, as the per-day totals hold them (revenue in 1/10,000 of the currency); `visitors` are
 * those first served that day.
 */
export interface ArmDay {
  arm: number;
  day: number;
  visitors: number;
  impressions: number;
  clicks: number;
  add_to_carts: number;
  orders: number;
  revenue: number;
  /** Σ over attributed orders of (order revenue in currency units)². */
  revenue_sq: number;
}

/** One arm's results (docs/attribution.md, "Reading the results"). */
export interface ArmResult {
  name: string;
  visitors: number;
  impressions: number;
  clicks: number;
  add_to_carts: number;
  orders: number;
  revenue: number;
  ctr: Estimate;
  add_to_cart_rate: Estimate;
  conversion: Estimate;
  revenue_per_visitor: Estimate;
  p_beats_first: { conversion: number | null; revenue_per_visitor: number | null } | null;
}

type Totals = Omit<ArmDay, 'arm' | 'day'>;

const zero = (): Totals => ({
  visitors: 0,
  impressions: 0,
  clicks: 0,
  add_to_carts: 0,
  orders: 0,
  revenue: 0,
  revenue_sq: 0,
});

function add(into: Totals, day: Totals): void {
  into.visitors += day.visitors;
  into.impressions += day.impressions;
  into.clicks += day.clicks;
  into.add_to_carts += day.add_to_carts;
  into.orders += day.orders;
  into.revenue += day.revenue;
  into.revenue_sq += day.revenue_sq;
}

/** Each arm's figures, intervals and chance of beating the first arm, from the per-day totals. */
export function armResults(experiment: Pick<Experiment, 'arms'>, days: readonly ArmDay[]): ArmResult[] {
  const totals = experiment.arms.map(zero);
  for (const day of days) if (totals[day.arm]) add(totals[day.arm]!, day);
  const revenueOf = (t: Totals) => ({ n: t.visitors, sum: t.revenue / 10_000, sumSq: t.revenue_sq });
  const first = totals[0]!;
  return experiment.arms.map((arm, i) => {
    const t = totals[i]!;
    return {
      name: arm.name,
      visitors: t.visitors,
      impressions: t.impressions,
      clicks: t.clicks,
      add_to_carts: t.add_to_carts,
      orders: t.orders,
      revenue: Number(formatMoney(t.revenue)),
      ctr: proportion(t.clicks, t.impressions),
      add_to_cart_rate: ratePerVisitor(t.add_to_carts, t.visitors),
      conversion: proportion(t.orders, t.visitors),
      revenue_per_visitor: mean(t.visitors, t.revenue / 10_000, t.revenue_sq, t.orders),
      p_beats_first:
        i === 0
          ? null
          : {
              conversion: probabilityBeatsProportion(
                { k: first.orders, n: first.visitors },
                { k: t.orders, n: t.visitors },
              ),
              revenue_per_visitor: probabilityBeatsMean(revenueOf(first), revenueOf(t)),
            },
    };
  });
}

/** The results day by day, cumulative: what the console's chart draws. */
export function cumulativeSeries(
  experiment: Pick<Experiment, 'arms'>,
  days: readonly ArmDay[],
): {
  day: number;
  arms: {
    visitors: number;
    orders: number;
    revenue: number;
    conversion: number | null;
    revenue_per_visitor: number | null;
  }[];
}[] {
  const dayList = [...new Set(days.map((d) => d.day))].sort((a, b) => a - b);
  const running = experiment.arms.map(zero);
  const byDay = new Map<number, ArmDay[]>();
  for (const d of days) byDay.set(d.day, [...(byDay.get(d.day) ?? []), d]);
  return dayList.map((day) => {
    for (const d of byDay.get(day) ?? []) if (running[d.arm]) add(running[d.arm]!, d);
    return {
      day,
      arms: running.map((t) => ({
        visitors: t.visitors,
        orders: t.orders,
        revenue: Number(formatMoney(t.revenue)),
        conversion: t.visitors > 0 ? t.orders / t.visitors : null,
        revenue_per_visitor: t.visitors > 0 ? t.revenue / 10_000 / t.visitors : null,
      })),
    };
  });
}
