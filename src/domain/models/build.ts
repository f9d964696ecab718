import { buildIncidence, KeyIndex, type Incidence } from './incidence.js';
import { buildNeighbourLists, type NeighbourLists, type PairScore } from './neighbours.js';
import { sarScore, type Basis } from './sar.js';
import { DEFAULT_MODEL_SETTINGS, type ModelSettings, type RecommendedSimilarity } from './settings.js';
import { getOrCreate } from '../maps.js';

const DAY_MS = 86_400_000;

/** An order line as the model reads it (cancelled orders are never given). */
export interface ModelLine {
  orderId: number;
  productId: number;
  customerId: number | null;
  createdAt: number;
}

/** A product view: the visitor is a session uuid, else a customer. */
export interface ModelView {
  visitor: string;
  handle: string;
  createdAt: number;
}

/**
 * A shop's model as built off the request path: typed arrays and
 * strings only, so it moves between threads without copying.
 */
export interface BuiltModel {
  /** Product ids, ascending: the item index of every array below. */
  products: Float64Array;
  /** Each product's top neighbours under the shop's recommended similarity. */
  neighbours: NeighbourLists;
  /** Customer ids, ascending, and each one's affinities (best first, at most AFFINITY_KEEP). */
  customers: Float64Array;
  affinityOffsets: Int32Array;
  affinityItems: Int32Array;
  affinityWeights: Float32Array;
  /** Viewed handles, ascending, and each one's top neighbours by sessions viewing both. */
  handles: string[];
  viewNeighbours: NeighbourLists;
  /** Each product's recent popularity: Σ over its order lines of 2^(−age / POPULARITY_HALF_LIFE_DAYS). */
  popularity: Float32Array;
  /** The POPULAR_KEPT most popular products (item indexes), most popular first: for_you's shared candidates. */
  popular: Int32Array;
  /** Time the affinities and view window are measured from: the newest order (views: newest view). */
  reference: number;
  stats: { lines: number; orders: number; customers: number; views: number; viewers: number };
}

/** Neighbours kept per product: enough for a full answer of 50 after filters, sparse at any catalog size. */
export const NEIGHBOURS_KEPT = 50;
/** Affinities kept per customer (their strongest products). */
export const AFFINITY_KEEP = 100;
/** Half-life of the popularity for_you blends in (days, from the newest order). */
export const POPULARITY_HALF_LIFE_DAYS = 14;
/** Popular products kept as candidates of every for_you answer. */
export const POPULAR_KEPT = 100;
/** The window of views the view model reads, back from the newest view. */
export const VIEW_WINDOW_DAYS = 30;
/**
 * `weighted` co-occurrence: each shared basket counts 2^(−age / 365 days) / √(products in it), so a
 * pallet order of 500 products and a two-year-old one say less than a small recent basket
 * (chosen on held-out orders: docs/evaluation.md).
 */
export const WEIGHTED_HALF_LIFE_DAYS = 365;

/** The pair score of a recommended similarity (SAR's three, or the weighted count). */
export function pairScore(similarity: RecommendedSimilarity, threshold: number): PairScore {
  if (similarity === 'weighted') return (_cij, wij) => wij;
  return (cij, _wij, cii, cjj) => sarScore(similarity, cij, cii, cjj, threshold);
}

/** The binary users × products matrix of the lines under a basis, and each user's weight for `weighted`. */
export function purchaseIncidence(
  lines: readonly ModelLine[],
  basis: Basis,
  productIndex: (id: number) => number,
  productCount: number,
  reference: number,
): { incidence: Incidence; weights: Float64Array } {
  const users = new KeyIndex<number>();
  const rows: number[] = [];
  const columns: number[] = [];
  const newest: number[] = [];
  for (const line of lines) {
    const key = basis === 'order' ? line.orderId : line.customerId;
    if (key === null) continue;
    const user = users.of(key);
    rows.push(user);
    columns.push(productIndex(line.productId));
    newest[user] = Math.max(newest[user] ?? 0, line.createdAt);
  }
  const incidence = buildIncidence(rows, columns, users.size, productCount);
  const weights = new Float64Array(users.size);
  for (let u = 0; u < users.size; u++) {
    const size = incidence.userOffsets[u + 1]! - incidence.userOffsets[u]!;
    weights[u] = 2 ** (-Math.max(0, reference - newest[u]!) / DAY_MS / WEIGHTED_HALF_LIFE_DAYS) / Math.sqrt(size);
  }
  return { incidence, weights };
}

/** Builds a shop's model from its order lines and views; the same input always gives the same model. */
export function buildModel(
  lines: readonly ModelLine[],
  views: readonly ModelView[],
  settings: ModelSettings = DEFAULT_MODEL_SETTINGS,
): BuiltModel {
  const products = Float64Array.from(new Set(lines.map((l) => l.productId))).sort();
  const productIndex = indexOfSorted(products);
  const reference = lines.reduce((max, l) => Math.max(max, l.createdAt), 0);
  const { incidence, weights } = purchaseIncidence(lines, settings.basis, productIndex, products.length, reference);
  const neighbours = buildNeighbourLists(incidence, pairScore(settings.similarity, settings.threshold), {
    k: NEIGHBOURS_KEPT,
    threshold: settings.threshold,
    ids: products,
    ...(settings.similarity === 'weighted' ? { userWeights: weights } : {}),
  });
  const affinity = customerAffinities(lines, productIndex, reference, settings.affinityHalfLifeDays);
  const viewModel = buildViewModel(views);
  return {
    products,
    neighbours,
    ...affinity,
    ...productPopularity(lines, productIndex, products.length, reference, POPULARITY_HALF_LIFE_DAYS),
    ...viewModel,
    reference,
    stats: {
      lines: lines.length,
      orders: new Set(lines.map((l) => l.orderId)).size,
      customers: affinity.customers.length,
      views: viewModel.views,
      viewers: viewModel.viewers,
    },
  };
}

/** Σ over each product's lines of 2^(−age_days / half-life), and the POPULAR_KEPT best (ties to the lower id). */
export function productPopularity(
  lines: readonly ModelLine[],
  productIndex: (id: number) => number,
  productCount: number,
  reference: number,
  halfLifeDays: number,
): { popularity: Float32Array; popular: Int32Array } {
  const popularity = new Float32Array(productCount);
  for (const line of lines) {
    const item = productIndex(line.productId);
    if (item >= 0) popularity[item]! += 2 ** (-Math.max(0, reference - line.createdAt) / DAY_MS / halfLifeDays);
  }
  const order = Array.from({ length: productCount }, (_, i) => i).sort(
    (a, b) => popularity[b]! - popularity[a]! || a - b,
  );
  return { popularity, popular: Int32Array.from(order.slice(0, POPULAR_KEPT)) };
}

/** Affinity of each customer to each product: Σ over their lines of 2^(−age_days / half-life), age from `reference`. */
function customerAffinities(
  lines: readonly ModelLine[],
  productIndex: (id: number) => number,
  reference: number,
  halfLifeDays: number,
) {
  const byCustomer = new Map<number, Map<number, number>>();
  for (const line of lines) {
    if (line.customerId === null) continue;
    const mine = getOrCreate(byCustomer, line.customerId, () => new Map());
    const item = productIndex(line.productId);
    const age = Math.max(0, reference - line.createdAt) / DAY_MS;
    mine.set(item, (mine.get(item) ?? 0) + 2 ** (-age / halfLifeDays));
  }
  const customers = Float64Array.from(byCustomer.keys()).sort();
  const affinityOffsets = new Int32Array(customers.length + 1);
  const items: number[] = [];
  const weights: number[] = [];
  customers.forEach((customer, c) => {
    affinityOffsets[c] = items.length;
    const ranked = [...byCustomer.get(customer)!].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, AFFINITY_KEEP);
    for (const [item, weight] of ranked) {
      items.push(item);
      weights.push(weight);
    }
  });
  affinityOffsets[customers.length] = items.length;
  return {
    customers,
    affinityOffsets,
    affinityItems: Int32Array.from(items),
    affinityWeights: Float32Array.from(weights),
  };
}

/** Co-viewing: a session (or customer) viewing both handles, over the VIEW_WINDOW_DAYS before the newest view. */
function buildViewModel(views: readonly ModelView[]) {
  const newest = views.reduce((max, v) => Math.max(max, v.createdAt), 0);
  const since = newest - VIEW_WINDOW_DAYS * DAY_MS;
  const recent = views.filter((v) => v.createdAt >= since);
  const handles = [...new Set(recent.map((v) => v.handle))].sort();
  const handleIndex = new Map(handles.map((h, i) => [h, i]));
  const visitors = new KeyIndex<string>();
  const rows = recent.map((v) => visitors.of(v.visitor));
  const incidence = buildIncidence(
    rows,
    recent.map((v) => handleIndex.get(v.handle)!),
    visitors.size,
    handles.length,
  );
  const order = Float64Array.from(handles, (_, i) => i);
  const viewNeighbours = buildNeighbourLists(incidence, (cij) => cij, { k: NEIGHBOURS_KEPT, threshold: 1, ids: order });
  return { handles, viewNeighbours, views: recent.length, viewers: visitors.size };
}

/** Index lookup in an ascending array (ids or handles): position of `value`, or −1. The one binary search. */
export function sortedIndexOf<T extends number | string>(sorted: ArrayLike<T>, value: T): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const v = sorted[mid]!;
    if (v === value) return mid;
    if (v < value) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

function indexOfSorted(sorted: Float64Array): (id: number) => number {
  return (id) => sortedIndexOf(sorted, id);
}
