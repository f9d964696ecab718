/**
 * User-based next-basket models tried for for_you (docs/evaluation.md, "Customer neighbours"):
 * TIFU-kNN (Hu et al. 2020) and UP-CF@r (Faggioli et al. 2020). Each customer is a time-ordered
 * list of baskets; neighbours are found among every training customer. Products are dense indices
 * over the fold's sorted product ids (so the lower index is the lower id). The repeat/explore split
 * is in repeat-explore.ts.
 */
import { getOrCreate } from '../../src/domain/maps.js';
import { Accumulator, type Sparse } from './accumulator.js';
import { fill } from './baselines.js';
import type { FoldContext, Lists } from './fold-methods.js';
import { K } from './metrics.js';

export type { Sparse } from './accumulator.js';

function sparseOf(map: ReadonlyMap<number, number>): Sparse {
  const entries = [...map].filter(([, v]) => v > 0).sort((a, b) => a[0] - b[0]);
  return { ids: Int32Array.from(entries, (e) => e[0]), values: Float64Array.from(entries, (e) => e[1]) };
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

/** Every training customer's baskets in time order, their products, orders of each and last purchase time. */
export class CustomerBaskets {
  readonly products: number[];
  readonly ids: number[];
  readonly index = new Map<number, number>();
  readonly baskets: Int32Array[][];
  /** Per customer: the products bought (an index vector, each 1), and orders and newest time of each. */
  readonly bought: Sparse[];
  readonly orders: Float64Array[];
  readonly last: Float64Array[];
  readonly scratch: Accumulator;

  constructor(ctx: FoldContext) {
    const byCustomer = new Map<number, { at: number; items: number[] }[]>();
    const all = new Set<number>();
    for (const order of ctx.fold.train) {
      for (const id of order.items.keys()) all.add(id);
      if (order.customer === null) continue;
      getOrCreate(byCustomer, order.customer, () => []).push({ at: order.at, items: [...order.items.keys()] });
    }
    this.products = [...all].sort((a, b) => a - b);
    const productIndex = new Map(this.products.map((id, i) => [id, i]));
    this.ids = [...byCustomer.keys()].sort((a, b) => a - b);
    for (const [i, id] of this.ids.entries()) this.index.set(id, i);
    this.baskets = this.ids.map((id) =>
      byCustomer.get(id)!.map((b) => Int32Array.from(new Set(b.items.map((p) => productIndex.get(p)!)))),
    );
    this.bought = [];
    this.orders = [];
    this.last = [];
    for (const id of this.ids) {
      const orders = new Map<number, number>();
      const last = new Map<number, number>();
      for (const b of byCustomer.get(id)!)
        for (const p of new Set(b.items.map((x) => productIndex.get(x)!))) {
          orders.set(p, (orders.get(p) ?? 0) + 1);
          last.set(p, Math.max(last.get(p) ?? 0, b.at));
        }
      const items = [...orders.keys()].sort((a, b) => a - b);
      this.bought.push({ ids: Int32Array.from(items), values: new Float64Array(items.length).fill(1) });
      this.orders.push(Float64Array.from(items, (p) => orders.get(p)!));
      this.last.push(Float64Array.from(items, (p) => last.get(p)!));
    }
    this.scratch = new Accumulator(this.products.length);
  }

  /** Product ids of a ranking of indices, filled with top sellers to K. */
  list(ctx: FoldContext, ranked: readonly number[]): number[] {
    return fill(
      ranked.slice(0, K).map((p) => this.products[p]!),
      ctx.topSellers,
      K,
    );
  }
}

const spaces = new WeakMap<FoldContext, CustomerBaskets>();
export const customerBaskets = (ctx: FoldContext): CustomerBaskets => memo(spaces, ctx, () => new CustomerBaskets(ctx));

/**
 * TIFU's personal vector: baskets cut into groups of `m` from the newest (the oldest group holds
 * the rest), g = mean over a group of rb^(newer baskets in it) · basket, u = mean over groups of
 * rg^(newer groups) · g.
 */
export function tifuVector(baskets: readonly Int32Array[], m: number, rb: number, rg: number): Sparse {
  const groups: Int32Array[][] = [];
  for (let end = baskets.length; end > 0; end -= m) groups.unshift(baskets.slice(Math.max(0, end - m), end));
  const out = new Map<number, number>();
  groups.forEach((group, g) => {
    const groupWeight = rg ** (groups.length - 1 - g) / groups.length;
    group.forEach((basket, b) => {
      const w = (groupWeight * rb ** (group.length - 1 - b)) / group.length;
      for (const item of basket) out.set(item, (out.get(item) ?? 0) + w);
    });
  });
  return sparseOf(out);
}

/** The largest k any candidate asks for: neighbours are searched once per customer and cut. */
export const MAX_NEIGHBOURS = 300;

/** Customers sharing a product with each customer, by a similarity of their vectors: an inverted index. */
export class NeighbourSearch {
  private readonly offsets: Int32Array;
  private readonly users: Int32Array;
  private readonly weights: Float64Array;
  private readonly norms: Float64Array;
  private readonly dots: Float64Array;
  private readonly cache = new Map<string, { users: Int32Array; sims: Float64Array }>();

  constructor(
    readonly vectors: readonly Sparse[],
    products: number,
  ) {
    this.norms = Float64Array.from(vectors, (v) => v.values.reduce((s, x) => s + x * x, 0));
    this.offsets = new Int32Array(products + 1);
    for (const v of vectors) for (const p of v.ids) this.offsets[p + 1]!++;
    for (let p = 0; p < products; p++) this.offsets[p + 1]! += this.offsets[p]!;
    const at = this.offsets.slice(0, products);
    this.users = new Int32Array(this.offsets[products]!);
    this.weights = new Float64Array(this.offsets[products]!);
    vectors.forEach((v, u) => {
      for (let n = 0; n < v.ids.length; n++) {
        const slot = at[v.ids[n]!]!++;
        this.users[slot] = u;
        this.weights[slot] = v.values[n]!;
      }
    });
    this.dots = new Float64Array(vectors.length);
  }

  /**
   * The `k` most similar other customers: sim = u·v / (|u|²^α · |v|²^(1−α)) (α = 0.5: cosine),
   * most similar first, ties to the lower index. Searched once per customer and α (MAX_NEIGHBOURS).
   */
  nearest(u: number, k: number, alpha = 0.5): { users: Int32Array; sims: Float64Array } {
    const all = getOrCreate(this.cache, `${u} ${alpha}`, () => this.search(u, alpha));
    return { users: all.users.subarray(0, k), sims: all.sims.subarray(0, k) };
  }

  private search(u: number, alpha: number): { users: Int32Array; sims: Float64Array } {
    const v = this.vectors[u]!;
    const touched: number[] = [];
    for (let n = 0; n < v.ids.length; n++) {
      const x = v.values[n]!;
      for (let s = this.offsets[v.ids[n]!]!; s < this.offsets[v.ids[n]! + 1]!; s++) {
        const w = this.users[s]!;
        if (this.dots[w] === 0) touched.push(w);
        this.dots[w]! += x * this.weights[s]!;
      }
    }
    const nu = this.norms[u]! ** alpha;
    const scored: [number, number][] = [];
    for (const w of touched) {
      if (w !== u && this.dots[w]! > 0) scored.push([w, this.dots[w]! / (nu * this.norms[w]! ** (1 - alpha))]);
      this.dots[w] = 0;
    }
    scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const top = scored.slice(0, MAX_NEIGHBOURS);
    return { users: Int32Array.from(top, (t) => t[0]), sims: Float64Array.from(top, (t) => t[1]) };
  }
}

export interface TifuParams {
  m: number;
  rb: number;
  rg: number;
  k: number;
  alpha: number;
}

const tifuCache = new WeakMap<CustomerBaskets, Map<string, NeighbourSearch | Lists>>();

/** TIFU-kNN: α · own vector + (1 − α) · mean of the k nearest customers' vectors (cosine), then top sellers. */
export function tifuKnn(ctx: FoldContext, p: TifuParams): Lists {
  const space = customerBaskets(ctx);
  const cache = memo(tifuCache, space, () => new Map<string, NeighbourSearch | Lists>());
  const search = getOrCreate(
    cache,
    `${p.m} ${p.rb} ${p.rg}`,
    () =>
      new NeighbourSearch(
        space.baskets.map((b) => tifuVector(b, p.m, p.rb, p.rg)),
        space.products.length,
      ),
  ) as NeighbourSearch;
  return ctx.fold.customers.map((c) => {
    const u = space.index.get(c.customer)!;
    const near = search.nearest(u, p.k);
    space.scratch.addVector(search.vectors[u]!, p.alpha);
    for (const w of near.users) space.scratch.addVector(search.vectors[w]!, (1 - p.alpha) / near.users.length);
    return space.list(ctx, space.scratch.takeTop(K));
  });
}

/** Every customer's products, each weighted 1: what UP-CF@r and the explore step compare customers on. */
const binarySearches = new WeakMap<CustomerBaskets, NeighbourSearch>();
export const binarySearch = (space: CustomerBaskets) =>
  memo(binarySearches, space, () => new NeighbourSearch(space.bought, space.products.length));

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
function recentShare(baskets: readonly Int32Array[], r: number): Sparse {
  const recent = baskets.slice(Math.max(0, baskets.length - r));
  const out = new Map<number, number>();
  for (const b of recent) for (const item of b) out.set(item, (out.get(item) ?? 0) + 1 / recent.length);
  return sparseOf(out);
}
const shareCache = new WeakMap<CustomerBaskets, Map<number, Sparse[]>>();

/**
 * UP-CF@r: score_i = Σ over the customer and their k nearest (asymmetric cosine on the products
 * bought) of sim^q · share of their last r baskets holding i; the customer's own similarity is 1.
 */
export function upCf(ctx: FoldContext, p: UpCfParams): Lists {
  const space = customerBaskets(ctx);
  const search = binarySearch(space);
  const shares = getOrCreate(
    memo(shareCache, space, () => new Map<number, Sparse[]>()),
    p.r,
    () => space.baskets.map((b) => recentShare(b, p.r)),
  );
  return ctx.fold.customers.map((c) => {
    const u = space.index.get(c.customer)!;
    const near = search.nearest(u, p.k, p.alpha);
    space.scratch.addVector(shares[u]!, 1);
    near.users.forEach((w, n) => {
      space.scratch.addVector(shares[w]!, near.sims[n]! ** p.q);
    });
    return space.list(ctx, space.scratch.takeTop(K));
  });
}
