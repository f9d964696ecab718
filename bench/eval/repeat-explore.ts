/** The repeat/explore split tried for for_you (docs/evaluation.md, "Customer neighbours"). */
import { DEFAULT_TRENDING, scoreTrending } from '../../src/domain/ranking/trending.js';
import { fill } from './baselines.js';
import type { FoldContext, Lists } from './fold-methods.js';
import { K } from './metrics.js';
import { binarySearch, type CustomerBaskets, customerBaskets, memo, nearestCached, rankMap } from './personal-knn.js';
import { DAY_MS } from './retail.js';

export interface RepeatExploreParams {
  /** Half-life of a purchase's recency, days (Infinity: none). */
  halfLifeDays: number;
  /** Whether the customer's own count of orders multiplies the propensity. */
  ownCount: boolean;
  k: number;
  /** Weight of trending beside the neighbours in the explore part (both scaled to a best of 1). */
  trending: number;
  /** Half-life of a neighbour's purchase in its vote, days (Infinity: every purchase counts the same). */
  neighbourHalfLifeDays: number;
}

/** Prior strength of the repeat rate: an item bought by few customers leans on the log's rate. */
const REPEAT_PRIOR = 10;

/** Each product's repeat rate: of the customers who bought it, the share who bought it in two orders or more (smoothed). */
function repeatRates(space: CustomerBaskets): Map<number, number> {
  const buyers = new Map<number, number>();
  const repeaters = new Map<number, number>();
  let all = 0;
  let again = 0;
  for (const orders of space.orders)
    for (const [id, n] of orders) {
      buyers.set(id, (buyers.get(id) ?? 0) + 1);
      all++;
      if (n >= 2) {
        repeaters.set(id, (repeaters.get(id) ?? 0) + 1);
        again++;
      }
    }
  const prior = all > 0 ? again / all : 0;
  const out = new Map<number, number>();
  for (const [id, n] of buyers) out.set(id, ((repeaters.get(id) ?? 0) + REPEAT_PRIOR * prior) / (n + REPEAT_PRIOR));
  return out;
}

const rateCache = new WeakMap<CustomerBaskets, Map<number, number>>();
const trendCache = new WeakMap<FoldContext, Map<number, number>>();

/** Trending's scores (the service's defaults) on the fold's training orders. */
function trendingScores(ctx: FoldContext): Map<number, number> {
  return memo(trendCache, ctx, () => {
    const sales = ctx.fold.train.flatMap((o) =>
      [...o.items].map(([productId, item]) => ({ productId, quantity: item.quantity, at: o.at, orderId: o.id })),
    );
    return scoreTrending(sales, ctx.reference, DEFAULT_TRENDING).scores;
  });
}

const maxOf = (m: ReadonlyMap<number, number>) => Math.max(0, ...m.values());

/**
 * Repeat, then explore: the customer's products by repeat propensity (the product's repeat rate in
 * the log × recency, × their own orders of it if `ownCount`), then products their k nearest
 * customers (cosine) bought, by Σ sim (× the recency of the neighbour's purchase), blended with
 * trending; then top sellers.
 */
export function repeatExplore(ctx: FoldContext, p: RepeatExploreParams): Lists {
  const space = customerBaskets(ctx);
  const search = binarySearch(space);
  const rates = memo(rateCache, space, () => repeatRates(space));
  const trend = trendingScores(ctx);
  const trendMax = maxOf(trend);
  return ctx.fold.customers.map((c) => {
    const u = space.index.get(c.customer)!;
    const own = new Map<number, number>();
    for (const [id, n] of space.orders[u]!) {
      const age = (ctx.reference - space.last[u]!.get(id)!) / DAY_MS;
      const decay = Number.isFinite(p.halfLifeDays) ? 2 ** (-age / p.halfLifeDays) : 1;
      own.set(id, rates.get(id)! * decay * (p.ownCount ? n : 1));
    }
    const near = nearestCached(search, u, p.k, 0.5);
    const votes = new Map<number, number>();
    const recent = (w: number, id: number) =>
      Number.isFinite(p.neighbourHalfLifeDays)
        ? 2 ** (-(ctx.reference - space.last[w]!.get(id)!) / DAY_MS / p.neighbourHalfLifeDays)
        : 1;
    near.users.forEach((w, n) => {
      for (const id of space.orders[w]!.keys())
        if (!own.has(id)) votes.set(id, (votes.get(id) ?? 0) + near.sims[n]! * recent(w, id));
    });
    const voteMax = maxOf(votes);
    const explore = new Map<number, number>();
    for (const [id, v] of votes) explore.set(id, v / voteMax);
    if (p.trending > 0 && trendMax > 0)
      for (const [id, t] of trend)
        if (!own.has(id)) explore.set(id, (explore.get(id) ?? 0) + (p.trending * t) / trendMax);
    return fill([...rankMap(own), ...rankMap(explore)].slice(0, K), ctx.topSellers, K);
  });
}
