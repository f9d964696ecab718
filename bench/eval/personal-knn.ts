/**
 * User-based next-basket models tried for for_you (docs/evaluation.md, "Customer neighbours"):
 * TIFU-kNN (Hu et al. 2020), UP-CF@r (Faggioli et al. 2020) and a repeat/explore split. Each
 * customer is a time-ordered list of baskets; neighbours are found among every training customer.
 * The repeat/explore split is in repeat-explore.ts.
 */
import { getOrCreate } from '../../src/domain/maps.js';
import { fill } from './baselines.js';
import type { FoldContext, Lists } from './fold-methods.js';
import { K } from './metrics.js';

/** A sparse non-negative vector over product ids (ids ascending). */
export interface Sparse {
  ids: Int32Array;
  values: Float64Array;
}

function sparseOf(map: ReadonlyMap<number, number>): Sparse {
  const entries = [...map].filter(([, v]) => v > 0).sort((a, b) => a[0] - b[0]);
  return { ids: Int32Array.from(entries, (e) => e[0]), values: Float64Array.from(entries, (e) => e[1]) };
}

/** Every training customer's baskets in time order, and the last time each product was bought. */
export class CustomerBaskets {
  readonly ids: number[];
  readonly index = new Map<number, number>();
  readonly baskets: number[][][];
  readonly last: Map<number, number>[];
  readonly orders: Map<number, number>[];

  constructor(ctx: FoldContext) {
    const byCustomer = new Map<number, { at: number; items: number[] }[]>();
    for (const order of ctx.fold.train) {
      if (order.customer === null) continue;
      getOrCreate(byCustomer, order.customer, () => []).push({ at: order.at, items: [...order.items.keys()] });
    }
    this.ids = [...byCustomer.keys()].sort((a, b) => a - b);
    for (const [i, id] of this.ids.entries()) this.index.set(id, i);
    this.baskets = this.ids.map((id) => byCustomer.get(id)!.map((b) => b.items));
    this.last = this.ids.map((id) => {
      const out = new Map<number, number>();
      for (const b of byCustomer.get(id)!)
        for (const item of b.items) out.set(item, Math.max(out.get(item) ?? 0, b.at));
      return out;
    });
    this.orders = this.baskets.map((bs) => {
      const out = new Map<number, number>();
      for (const b of bs) for (const item of b) out.set(item, (out.get(item) ?? 0) + 1);
      return out;
    });
  }
}

/** A value computed once per key object (a fold's context, a search) and dropped with it. */
export function memo<K extends object, V>(cache: WeakMap<K, V>, key: K, create: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = create();
    cache.set(key, value);
  }
  return value;
}

const spaces = new WeakMap<FoldContext, CustomerBaskets>();
export const customerBaskets = (ctx: FoldContext): CustomerBaskets => memo(spaces, ctx, () => new CustomerBaskets(ctx));

/**
 * TIFU's personal vector: baskets cut into groups of `m` from the newest (the oldest group holds
 * the rest), g = mean over a group of rb^(newer baskets in it) · basket, u = mean over groups of
 * rg^(newer groups) · g.
 */
export function tifuVector(baskets: readonly (readonly number[])[], m: number, rb: number, rg: number): Sparse {
  const groups: (readonly number[])[][] = [];
  for (let end = baskets.length; end > 0; end -= m) groups.unshift(baskets.slice(Math.max(0, end - m), end));
  const out = new Map<number, number>();
  groups.forEach((group, g) => {
    const groupWeight = rg ** (groups.length - 1 - g) / groups.length;
    group.forEach((basket, b) => {
      const w = (groupWeight * rb ** (group.length - 1 - b)) / group.length;
      for (const item of new Set(basket)) out.set(item, (out.get(item) ?? 0) + w);
    });
  });
  return sparseOf(out);
}

/** Customers sharing a product with each customer, by a similarity of their vectors: an inverted index. */
export class NeighbourSearch {
  private readonly postings = new Map<number, { users: number[]; values: number[] }>();
  private readonly norms: Float64Array;

  /** `norm` of a vector: what the similarity divides by (asymmetric cosine: n_u^α n_v^(1−α)). */
  constructor(readonly vectors: readonly Sparse[]) {
    this.norms = Float64Array.from(vectors, (v) => v.values.reduce((s, x) => s + x * x, 0));
    vectors.forEach((v, u) => {
      for (let n = 0; n < v.ids.length; n++) {
        const p = getOrCreate(this.postings, v.ids[n]!, () => ({ users: [], values: [] }));
        p.users.push(u);
        p.values.push(v.values[n]!);
      }
    });
  }

  /**
   * The `k` most similar other customers: sim = u·v / (|u|²^α · |v|²^(1−α)) (α = 0.5: cosine),
   * most similar first, ties to the lower index.
   */
  nearest(u: number, k: number, alpha = 0.5): { users: Int32Array; sims: Float64Array } {
    const dots = new Map<number, number>();
    const v = this.vectors[u]!;
    for (let n = 0; n < v.ids.length; n++) {
      const p = this.postings.get(v.ids[n]!)!;
      const x = v.values[n]!;
      for (let i = 0; i < p.users.length; i++) dots.set(p.users[i]!, (dots.get(p.users[i]!) ?? 0) + x * p.values[i]!);
    }
    dots.delete(u);
    const nu = this.norms[u]! ** alpha;
    const scored: [number, number][] = [];
    for (const [w, dot] of dots) if (dot > 0) scored.push([w, dot / (nu * this.norms[w]! ** (1 - alpha))]);
    scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const top = scored.slice(0, k);
    return { users: Int32Array.from(top, (t) => t[0]), sims: Float64Array.from(top, (t) => t[1]) };
  }
}

/** Product ids by score descending, ties to the lower id. */
export function rankMap(scores: ReadonlyMap<number, number>): number[] {
  return [...scores]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([id]) => id);
}

function addScaled(into: Map<number, number>, v: Sparse, scale: number): void {
  for (let n = 0; n < v.ids.length; n++) into.set(v.ids[n]!, (into.get(v.ids[n]!) ?? 0) + scale * v.values[n]!);
}

export interface TifuParams {
  m: number;
  rb: number;
  rg: number;
  k: number;
  alpha: number;
}

const tifuSearches = new WeakMap<CustomerBaskets, Map<string, NeighbourSearch>>();

/** TIFU-kNN: α · own vector + (1 − α) · mean of the k nearest customers' vectors (cosine), then top sellers. */
export function tifuKnn(ctx: FoldContext, p: TifuParams): Lists {
  const space = customerBaskets(ctx);
  const searches = memo(tifuSearches, space, () => new Map<string, NeighbourSearch>());
  const search = getOrCreate(
    searches,
    `${p.m} ${p.rb} ${p.rg}`,
    () => new NeighbourSearch(space.baskets.map((b) => tifuVector(b, p.m, p.rb, p.rg))),
  );
  return ctx.fold.customers.map((c) => {
    const u = space.index.get(c.customer)!;
    const near = nearestCached(search, u, p.k, 0.5);
    const scores = new Map<number, number>();
    addScaled(scores, search.vectors[u]!, p.alpha);
    for (const w of near.users) addScaled(scores, search.vectors[w]!, (1 - p.alpha) / near.users.length);
    return fill(rankMap(scores).slice(0, K), ctx.topSellers, K);
  });
}

/** The largest k any candidate asks for: neighbours are searched once per customer and cut. */
export const MAX_NEIGHBOURS = 300;
const nearCache = new WeakMap<NeighbourSearch, Map<string, ReturnType<NeighbourSearch['nearest']>>>();

export function nearestCached(search: NeighbourSearch, u: number, k: number, alpha: number) {
  const cache = memo(nearCache, search, () => new Map<string, ReturnType<NeighbourSearch['nearest']>>());
  const all = getOrCreate(cache, `${u} ${alpha}`, () => search.nearest(u, MAX_NEIGHBOURS, alpha));
  return { users: all.users.subarray(0, k), sims: all.sims.subarray(0, k) };
}

/** Every customer's products, each weighted 1: what UP-CF@r and the explore step compare customers on. */
const binarySearches = new WeakMap<CustomerBaskets, NeighbourSearch>();
export const binarySearch = (space: CustomerBaskets) =>
  memo(
    binarySearches,
    space,
    () => new NeighbourSearch(space.orders.map((o) => sparseOf(new Map([...o.keys()].map((id) => [id, 1]))))),
  );

export interface UpCfParams {
  /** Recency window: the customer's last r baskets (Infinity: all). */
  r: number;
  /** Asymmetric cosine's α (0.5: cosine). */
  alpha: number;
  /** Locality: similarities are raised to q. */
  q: number;
  k: number;
}

/** Share of a customer's last r baskets holding each product: UP-CF@r's recency-aware user-wise popularity. */
function recentShare(baskets: readonly (readonly number[])[], r: number): Map<number, number> {
  const recent = baskets.slice(Math.max(0, baskets.length - r));
  const out = new Map<number, number>();
  for (const b of recent) for (const item of new Set(b)) out.set(item, (out.get(item) ?? 0) + 1 / recent.length);
  return out;
}

/**
 * UP-CF@r: score_i = Σ over the customer and their k nearest (asymmetric cosine on the products
 * bought) of sim^q · share of their last r baskets holding i; the customer's own similarity is 1.
 */
export function upCf(ctx: FoldContext, p: UpCfParams): Lists {
  const space = customerBaskets(ctx);
  const search = binarySearch(space);
  return ctx.fold.customers.map((c) => {
    const u = space.index.get(c.customer)!;
    const near = nearestCached(search, u, p.k, p.alpha);
    const scores = recentShare(space.baskets[u]!, p.r);
    near.users.forEach((w, n) => {
      const weight = near.sims[n]! ** p.q;
      for (const [id, share] of recentShare(space.baskets[w]!, p.r))
        scores.set(id, (scores.get(id) ?? 0) + weight * share);
    });
    return fill(rankMap(scores).slice(0, K), ctx.topSellers, K);
  });
}
