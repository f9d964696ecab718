import { addDays, shopToday } from '../domain/billing/dates.js';
import { SMART_SORT_K } from '../domain/ranking/smart-sort.js';
import { DAY_MS, rankUnits } from '../domain/ranking/trending.js';
import type { Shop } from '../domain/shop.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { IndexedProduct } from '../indexes/shop-catalog.js';
import type { CommerceStore } from '../store/kysely/commerce.js';
import type { EventStore } from '../store/kysely/events.js';
import { conversionOf, shopRate } from './lists/conversion.js';
import { loadCatalog } from '../indexes/catalog-lookup.js';
import { getOrCreate } from '../domain/maps.js';

export const INSIGHTS_DAYS = { min: 1, max: 90, fallback: 30 };
const TOP = 10;
/**
 * Events are counted in quarter hours: every time zone's offset
 * is a whole number of them, so none straddles a local midnight.
 */
const PERIOD_MS = 15 * 60_000;

interface ProductRef {
  product_id: number;
  title: string;
  handle: string;
  image: string | null;
}

export interface Insights {
  days: number;
  currency: string;
  trending: (ProductRef & { score: number })[];
  top_sellers: (ProductRef & { units: number })[];
  events_per_day: { date: string; viewed: number; added: number; removed: number }[];
  conversion: {
    shop_rate: number;
    k: number;
    products: { product_id: number; title: string; views: number; purchases: number; estimate: number }[];
  };
}

const ref = (p: IndexedProduct): ProductRef => ({ product_id: p.id, title: p.title, handle: p.handle, image: p.image });

/**
 * The merchant console's overview of a shop: trending, top sellers and estimated conversion
 * from the read model (the rankings the lists use), events per local day from the store.
 */
export function createInsightsService(deps: {
  store: CommerceStore & EventStore;
  catalog: CatalogIndex;
  clock?: () => number;
}) {
  const { store } = deps;
  const clock = deps.clock ?? Date.now;

  /** One entry per day of the window in the shop's time zone, oldest first, zero days included. */
  async function eventsPerDay(shop: Shop, days: number, now: number): Promise<Insights['events_per_day']> {
    const today = shopToday(now, shop.timezone);
    const byDate = new Map<string, Insights['events_per_day'][number]>();
    for (let i = days - 1; i >= 0; i--) {
      const date = addDays(today, -i);
      byDate.set(date, { date, viewed: 0, added: 0, removed: 0 });
    }
    // A day more than the window covers the oldest local day whatever the offset; the date filter trims it.
    const dateOf = new Map<number, string>();
    for (const { start, verb, count } of await store.countEventsByPeriod(
      shop.id,
      now - (days + 1) * DAY_MS,
      PERIOD_MS,
    )) {
      const date = getOrCreate(dateOf, start, () => shopToday(start, shop.timezone));
      const row = byDate.get(date);
      if (row) row[verb] += count;
    }
    return [...byDate.values()];
  }

  return {
    async insights(shop: Shop, days: number): Promise<Insights> {
      const catalog = await loadCatalog(deps.catalog, shop.id);
      const { sales } = catalog;
      const inCatalog = (ids: Iterable<number>) => {
        const out: IndexedProduct[] = [];
        for (const id of ids) {
          const product = catalog.products.get(id);
          if (product) out.push(product);
          if (out.length === TOP) break;
        }
        return out;
      };

      // Units over the last `days`, ending where every sales window ends (the newest order when it is older than now).
      const since = sales.reference - days * DAY_MS;
      // Summed by the store: read line by line, a shop of 300,000 lines held every shop's requests 0.7 s.
      const [sold, eventsByDay] = await Promise.all([
        store.unitsSoldBetween(shop.id, since, sales.reference),
        eventsPerDay(shop, days, clock()),
      ]);
      const units = new Map(sold.map(({ productId, units }) => [productId, units]));
      const top = { ranked: rankUnits(units), units };
      const evidence = new Set<IndexedProduct>();
      for (const id of sales.unitsSold30d.keys()) {
        const product = catalog.products.get(id);
        if (product) evidence.add(product);
      }
      for (const handle of (await catalog.eventCountsOnDemand.get()).keys()) {
        const product = catalog.byHandle.get(handle);
        if (product) evidence.add(product);
      }
      const conversion = [...evidence]
        .map((product) => ({ product, ...conversionOf(catalog, product) }))
        // A product nobody has viewed (one imported a minute ago) has
        // no conversion to show: its estimate is the prior alone.
        .filter((c) => c.views > 0)
        .sort((a, b) => b.estimate - a.estimate || a.product.id - b.product.id)
        .slice(0, TOP);

      return {
        days,
        currency: shop.currency,
        trending: inCatalog(sales.trending).map((p) => ({ ...ref(p), score: sales.trendingScores.get(p.id) ?? 0 })),
        top_sellers: inCatalog(top.ranked).map((p) => ({ ...ref(p), units: top.units.get(p.id)! })),
        events_per_day: eventsByDay,
        conversion: {
          shop_rate: shopRate(catalog),
          k: SMART_SORT_K,
          products: conversion.map(({ product, views, purchases, estimate }) => ({
            product_id: product.id,
            title: product.title,
            views,
            purchases,
            estimate,
          })),
        },
      };
    },
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
