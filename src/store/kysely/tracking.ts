import type { Kysely } from 'kysely';
import { totalsOf, type AttributedLine, type Click } from '../../domain/attribution/attribute.js';
import { countTracked, type TrackRow } from '../../domain/attribution/track.js';
import { utcDay } from '../../domain/events.js';
import { chunks } from '../codec.js';
import { countableRows, forgetCountedBefore } from './track-once.js';
import type { Database } from '../schema.js';
import { withoutErased } from './erased-rows.js';
import { addToTotals } from './increments.js';
import { nextCounterBlock } from './shops.js';

/** Tracking and attribution storage (docs/attribution.md). */
export interface TrackingStore {
  /** Stores tracked events of any shops in one transaction, with their per-day totals: all or nothing. */
  appendTrackEvents(rows: TrackRow[]): Promise<void>;
  /** Forgets which tracked events counted on days before `day` (yyyymmdd); returns how many records went. */
  forgetCountedBefore(day: number): Promise<number>;
  /** Clicks by these customers or in these carts created in [from, to] (epoch ms), for the click window. */
  clicksOf(shopId: number, who: ClickersOf, from: number, to: number): Promise<Click[]>;
  /**
   * Replaces the attributed lines of these orders (none for a cancelled one) and moves the per-day
   * totals by the difference.
   */
  replaceOrderAttributions(shopId: number, orderIds: number[], lines: AttributedLine[]): Promise<void>;
  /** Per-day figures of every source from `sinceDay` (yyyymmdd) on. */
  sourceDays(shopId: number, sinceDay: number): Promise<SourceDay[]>;
}

/** Whose clicks the click window reads: signed-in customers' and carts'. */
export interface ClickersOf {
  customerIds: number[];
  cartTokens: string[];
}

/** A day of one source's figures (UTC day as yyyymmdd; revenue in 1/10,000 of the currency). */
export interface SourceDay {
  day: number;
  source: string;
  impressions: number;
  clicks: number;
  add_to_carts: number;
  orders: number;
  revenue: number;
}

export interface TrackingTables {
  track_events: {
    shop_id: number;
    id: number;
    type: string;
    uuid: string | null;
    customer_id: number | null;
    source: string | null;
    product_id: number | null;
    variant_id: number | null;
    created_at: number;
    cart_token: string | null;
  };
  source_days: {
    shop_id: number;
    day: number;
    source: string;
    impressions: number;
    clicks: number;
    add_to_carts: number;
    orders: number;
    revenue: number;
  };
  order_attributions: {
    shop_id: number;
    order_id: number;
    line_no: number;
    source: string;
    via: string;
    product_id: number;
    quantity: number;
    revenue: number;
    experiment_id: number | null;
    arm: number | null;
    created_at: number;
  };
  track_counted: { shop_id: number; day: number; visitor: string; source: string; product_id: number; type: string };
}

const TRACK_COUNTS = ['impressions', 'clicks', 'add_to_carts'] as const;

/** Tracked events, attributed order lines and their per-day totals (docs/attribution.md). */
export function trackingMethods(db: Kysely<Database>): TrackingStore {
  return {
    forgetCountedBefore: (day) => forgetCountedBefore(db, day),
    async appendTrackEvents(all) {
      if (all.length === 0) return;
      await db.transaction().execute(async (trx) => {
        // The shops' counters before the check for erasures, in shop order: an erasure takes them first.
        for (const shopId of [...new Set(all.map((r) => r.shop_id))].sort((a, b) => a - b))
          await nextCounterBlock(trx, shopId, 'track_events', 0);
        // Repeats are acknowledged by the caller and dropped here; arms only where they served the visitor.
        const rows = await countableRows(trx, await withoutErased(trx, all));
        const byShop = new Map<number, typeof rows>();
        for (const row of rows) {
          const list = byShop.get(row.shop_id);
          if (list) list.push(row);
          else byShop.set(row.shop_id, [row]);
        }
        for (const [shopId, list] of byShop) {
          const first = (await nextCounterBlock(trx, shopId, 'track_events', list.length)) - list.length + 1;
          const values = list.map((r, i) => ({
            shop_id: shopId,
            id: first + i,
            type: r.type,
            uuid: r.uuid,
            customer_id: r.customer_id,
            source: r.source,
            product_id: r.product_id,
            variant_id: r.variant_id,
            cart_token: r.cart_token,
            created_at: r.created_at,
          }));
          for (const batch of chunks(values, 9)) await trx.insertInto('track_events').values(batch).execute();
        }
        const bySource = countTracked(rows, (r) =>
          r.source === null ? null : { shop_id: r.shop_id, day: utcDay(r.created_at), source: r.source },
        );
        await addToTotals(
          trx,
          'source_days',
          ['shop_id', 'day', 'source'],
          TRACK_COUNTS,
          [...bySource.values()].map(({ key, ...counts }) => ({ ...key, ...counts })),
        );
        const byArm = countTracked(rows, (r) =>
          r.experiment_id === null || r.arm === null
            ? null
            : { shop_id: r.shop_id, experiment_id: r.experiment_id, arm: r.arm, day: utcDay(r.created_at) },
        );
        await addToTotals(
          trx,
          'experiment_days',
          ['shop_id', 'experiment_id', 'arm', 'day'],
          TRACK_COUNTS,
          [...byArm.values()].map(({ key, ...counts }) => ({ ...key, ...counts })),
        );
      });
    },

    async clicksOf(shopId, who, from, to) {
      const out = new Map<number, Click>();
      const ofWhom = [
        ...chunks([...new Set(who.customerIds)], 1, 500).map((ids) => ['customer_id', ids] as const),
        ...chunks([...new Set(who.cartTokens)], 1, 500).map((tokens) => ['cart_token', tokens] as const),
      ];
      for (const [column, values] of ofWhom) {
        const rows = await db
          .selectFrom('track_events')
          .select(['id', 'customer_id', 'cart_token', 'product_id', 'source', 'created_at'])
          .where('shop_id', '=', shopId)
          .where(column, 'in', values)
          .where('created_at', '>=', from)
          .where('created_at', '<=', to)
          .where('type', '=', 'click')
          .where('product_id', 'is not', null)
          .where('source', 'is not', null)
          .execute();
        // A click found by its customer and again by its cart is one click.
        for (const r of rows) {
          out.set(Number(r.id), {
            customer_id: r.customer_id === null ? null : Number(r.customer_id),
            cart_token: r.cart_token,
            product_id: Number(r.product_id),
            source: r.source!,
            created_at: Number(r.created_at),
          });
        }
      }
      return [...out.values()];
    },

    async replaceOrderAttributions(shopId, orderIds, lines) {
      if (orderIds.length === 0) return;
      await db.transaction().execute(async (trx) => {
        const old: AttributedLine[] = [];
        for (const ids of chunks(orderIds, 1, 500)) {
          const rows = await trx
            .selectFrom('order_attributions')
            .selectAll()
            .where('shop_id', '=', shopId)
            .where('order_id', 'in', ids)
            .execute();
          for (const r of rows) {
            old.push({
              order_id: Number(r.order_id),
              line_no: Number(r.line_no),
              source: r.source,
              via: r.via as AttributedLine['via'],
              product_id: Number(r.product_id),
              quantity: Number(r.quantity),
              revenue: Number(r.revenue),
              created_at: Number(r.created_at),
              experiment_id: r.experiment_id === null ? null : Number(r.experiment_id),
              arm: r.arm === null ? null : Number(r.arm),
            });
          }
          if (rows.length > 0)
            await trx
              .deleteFrom('order_attributions')
              .where('shop_id', '=', shopId)
              .where('order_id', 'in', ids)
              .execute();
        }
        for (const batch of chunks(lines, 11)) {
          await trx
            .insertInto('order_attributions')
            .values(batch.map((l) => ({ shop_id: shopId, ...l })))
            .execute();
        }
        await moveTotals(trx, shopId, totalsOf(old), totalsOf(lines));
      });
    },

    async sourceDays(shopId, sinceDay) {
      const rows = await db
        .selectFrom('source_days')
        .selectAll()
        .where('shop_id', '=', shopId)
        .where('day', '>=', sinceDay)
        .orderBy('day')
        .execute();
      return rows.map((r) => ({
        day: Number(r.day),
        source: r.source,
        impressions: Number(r.impressions),
        clicks: Number(r.clicks),
        add_to_carts: Number(r.add_to_carts),
        orders: Number(r.orders),
        revenue: Number(r.revenue),
      }));
    },
  };
}

/** Moves the per-day totals from what the old attributions added to what the new ones add. */
async function moveTotals(
  trx: Kysely<Database>,
  shopId: number,
  before: ReturnType<typeof totalsOf>,
  after: ReturnType<typeof totalsOf>,
): Promise<void> {
  const sources = new Map<string, { shop_id: number; day: number; source: string; orders: number; revenue: number }>();
  for (const [sign, totals] of [
    [-1, before],
    [1, after],
  ] as const) {
    for (const [key, row] of totals.sources) {
      const delta = sources.get(key) ?? { shop_id: shopId, day: row.day, source: row.source, orders: 0, revenue: 0 };
      delta.orders += sign * row.orders;
      delta.revenue += sign * row.revenue;
      sources.set(key, delta);
    }
  }
  const arms = new Map<
    string,
    {
      shop_id: number;
      experiment_id: number;
      arm: number;
      day: number;
      orders: number;
      revenue: number;
      revenue_sq: number;
    }
  >();
  for (const [sign, totals] of [
    [-1, before],
    [1, after],
  ] as const) {
    for (const [key, row] of totals.arms) {
      const delta = arms.get(key) ?? {
        shop_id: shopId,
        experiment_id: row.experiment_id,
        arm: row.arm,
        day: row.day,
        orders: 0,
        revenue: 0,
        revenue_sq: 0,
      };
      delta.orders += sign * row.orders;
      delta.revenue += sign * row.revenue;
      delta.revenue_sq += sign * row.revenue_sq;
      arms.set(key, delta);
    }
  }
  const moved = <T extends { orders: number; revenue: number }>(rows: Iterable<T>) =>
    [...rows].filter((r) => r.orders !== 0 || r.revenue !== 0);
  await addToTotals(trx, 'source_days', ['shop_id', 'day', 'source'], ['orders', 'revenue'], moved(sources.values()));
  await addToTotals(
    trx,
    'experiment_days',
    ['shop_id', 'experiment_id', 'arm', 'day'],
    ['orders', 'revenue', 'revenue_sq'],
    moved(arms.values()),
  );
}
