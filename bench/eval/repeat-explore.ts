/** The repeat/explore split tried for for_you (docs/evaluation.md, "Customer neighbours"). */
import { DEFAULT_TRENDING, scoreTrending } from '../../src/domain/ranking/trending.js';
import type { FoldContext, Lists } from './fold-methods.js';
import { K } from './metrics.js';
import { getOrCreate } from '../../src/domain/maps.js';
import { binarySearch, type CustomerBaskets, customerBaskets, memo, type Sparse } from './personal-knn.js';
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

/**
 * Each product's repeat rate: of the customers who bought it, the share who bought it in two
 * orders or more (smoothed).
 */
function repeatRates(space: CustomerBaskets): Float64Array {
  const buyers = new Float64Array(space.products.length);
  const repeaters = new Float64Array(space.products.length);
  let all = 0;
  let again = 0;
  space.bought.forEach((b, u) => {
    for (let n = 0; n < b.ids.length; n++) {
      buyers[b.ids[n]!]!++;
      all++;
      if (space.orders[u]![n]! >= 2) {
        repeaters[b.ids[n]!]!++;
        again++;
      }
    }
  });
  const prior = all > 0 ? again / all : 0;
  return buyers.map((n, p) => (repeaters[p]! + REPEAT_PRIOR * prior) / (n + REPEAT_PRIOR));
}

const rateCache = new WeakMap<CustomerBaskets, Float64Array>();
const trendCache = new WeakMap<FoldContext, Sparse>();
const voteCache = new WeakMap<CustomerBaskets, Map<string, Map<number, Sparse>>>();

/** Trending's scores (the service's defaults) on the fold's training orders, scaled to a best of 1. */
function trendingScores(ctx: FoldContext, space: CustomerBaskets): Sparse {
  return memo(trendCache, ctx, () => {
    const sales = ctx.fold.train.flatMap((o) =>
      [...o.items].map(([productId, item]) => ({ productId, quantity: item.quantity, at: o.at, orderId: o.id })),
    );
    const scores = scoreTrending(sales, ctx.reference, DEFAULT_TRENDING).scores;
    const best = Math.max(0, ...scores.values());
    const entries = space.products.map((id, p) => [p, best > 0 ? (scores.get(id) ?? 0) / best : 0] as const);
    const kept = entries.filter(([, v]) => v > 0);
    return { ids: Int32Array.from(kept, (e) => e[0]), values: Float64Array.from(kept, (e) => e[1]) };
  });
}

/**
 * The explore votes of customer u: Σ over their k nearest (cosine) of sim × the recency of the
 * neighbour's purchase, products u bought left out, scaled to a best of 1; cached per (k, half-life).
 */
function exploreVotes(ctx: FoldContext, space: CustomerBaskets, u: number, p: RepeatExploreParams): Sparse {
  const byKey = memo(voteCache, space, () => new Map<string, Map<number, Sparse>>());
  const cache = getOrCreate(byKey, `${p.k} ${p.neighbourHalfLifeDays}`, () => new Map<number, Sparse>());
  return getOrCreate(cache, u, () => {
    const near = binarySearch(space).nearest(u, p.k);
    const votes = new Map<number, number>();
    const own = new Set(space.bought[u]!.ids);
    near.users.forEach((w, n) => {
      const items = space.bought[w]!.ids;
      for (let i = 0; i < items.length; i++) {
        if (own.has(items[i]!)) continue;
        const age = (ctx.reference - space.last[w]![i]!) / DAY_MS;
        const recent = Number.isFinite(p.neighbourHalfLifeDays) ? 2 ** (-age / p.neighbourHalfLifeDays) : 1;
        votes.set(items[i]!, (votes.get(items[i]!) ?? 0) + near.sims[n]! * recent);
      }
    });
    const best = Math.max(0, ...votes.values());
    const entries = [...votes].filter(([, v]) => v > 0);
    return { ids: Int32Array.from(entries, (e) => e[0]), values: Float64Array.from(entries, (e) => e[1] / best) };
  });
}

/**
 * Repeat, then explore: the customer's products by repeat propensity (the product's repeat rate in
 * the log × recency, × their own orders of it if `ownCount`), then products their k nearest
 * customers (cosine) bought, by Σ sim (× the recency of the neighbour's purchase), blended with
 * trending; then top sellers.
 */
export function repeatExplore(ctx: FoldContext, p: RepeatExploreParams): Lists {
  const space = customerBaskets(ctx);
  const rates = memo(rateCache, space, () => repeatRates(space));
  const trend = trendingScores(ctx, space);
  return ctx.fold.customers.map((c) => {
    const u = space.index.get(c.customer)!;
    const bought = space.bought[u]!;
    const own = Array.from(bought.ids, (item, n) => {
      const age = (ctx.reference - space.last[u]![n]!) / DAY_MS;
      const decay = Number.isFinite(p.halfLifeDays) ? 2 ** (-age / p.halfLifeDays) : 1;
      return [item, rates[item]! * decay * (p.ownCount ? space.orders[u]![n]! : 1)] as const;
    }).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const ranked = own.slice(0, K).map(([item]) => item);
    if (ranked.length < K) {
      space.scratch.addVector(exploreVotes(ctx, space, u, p), 1);
      if (p.trending > 0) space.scratch.addVector(trend, p.trending);
      const mine = new Set(bought.ids);
      ranked.push(...space.scratch.takeTop(K - ranked.length, (j) => mine.has(j)));
    }
    return space.list(ctx, ranked);
  });
}
