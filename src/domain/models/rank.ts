import { sortedIndexOf, type BuiltModel } from './build.js';
import type { NeighbourLists } from './neighbours.js';

/**
 * How much a neighbour's vote weighs against the customer's own affinity in `for_you` (each row
 * of similarities scaled so its best neighbour is 1): small, so the products a customer buys
 * again lead and their neighbours reorder and follow (chosen on held-out orders, docs/evaluation.md).
 */
export const NEIGHBOUR_VOTE = 0.02;

/** Seeds given at most, strongest first: bounds a request's work at SEEDS_USED × neighbours kept. */
export const SEEDS_USED = 250;

/** Σ over seeds of weight × s(seed, j), read from sparse neighbour lists; `normalize` scales each row to a best of 1. */
function vote(lists: NeighbourLists, seeds: readonly { item: number; weight: number }[], normalize: boolean): Map<number, number> {
  const scores = new Map<number, number>();
  for (const { item, weight } of seeds.slice(0, SEEDS_USED)) {
    const start = lists.offsets[item]!;
    const end = lists.offsets[item + 1]!;
    if (start === end) continue;
    const scale = normalize ? weight / lists.scores[start]! : weight;
    for (let n = start; n < end; n++) {
      const j = lists.items[n]!;
      scores.set(j, (scores.get(j) ?? 0) + scale * lists.scores[n]!);
    }
  }
  return scores;
}

/** Items by score descending, then by `order` ascending. */
function ranked(scores: Map<number, number>, order: (item: number) => number | string): number[] {
  return [...scores.keys()].sort((a, b) => scores.get(b)! - scores.get(a)! || (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** `/products/recommended`: products by Σ of their similarity to the inputs, inputs left out. */
export function recommendedFor(model: BuiltModel, inputIds: readonly number[]): number[] {
  const seeds = inputIds.map((id) => ({ item: sortedIndexOf(model.products, id), weight: 1 })).filter((s) => s.item >= 0);
  const scores = vote(model.neighbours, seeds, false);
  for (const { item } of seeds) scores.delete(item);
  return ranked(scores, (j) => model.products[j]!).map((j) => model.products[j]!);
}

/** A customer's affinities (product id → weight), strongest first; empty for an unknown customer. */
export function affinitiesOf(model: BuiltModel, customerId: number): Seed[] {
  const c = sortedIndexOf(model.customers, customerId);
  if (c < 0) return [];
  const out: Seed[] = [];
  for (let n = model.affinityOffsets[c]!; n < model.affinityOffsets[c + 1]!; n++)
    out.push({ productId: model.products[model.affinityItems[n]!]!, weight: model.affinityWeights[n]! });
  return out;
}

/**
 * `/products/for_you`: score_j = Σ_i affinity_i · s_ij with s_jj = 1 and the other similarities
 * scaled to NEIGHBOUR_VOTE at best. Viewed products vote for their neighbours only (they are not
 * bought); products in `exclude` (already bought) are left out.
 */
export function forYou(
  model: BuiltModel,
  affinities: readonly Seed[],
  views: readonly Seed[],
  exclude: ReadonlySet<number>,
  neighbourVote = NEIGHBOUR_VOTE,
): number[] {
  const items = [...affinities, ...views]
    .map((s) => ({ item: sortedIndexOf(model.products, s.productId), weight: s.weight * neighbourVote }))
    .filter((s) => s.item >= 0);
  const scores = vote(model.neighbours, items, true);
  for (const seed of affinities) {
    const item = sortedIndexOf(model.products, seed.productId);
    if (item >= 0) scores.set(item, (scores.get(item) ?? 0) + seed.weight);
  }
  return ranked(scores, (j) => model.products[j]!)
    .map((j) => model.products[j]!)
    .filter((id) => !exclude.has(id));
}

/** A product and how much a visitor is drawn to it. */
export interface Seed {
  productId: number;
  weight: number;
}

/** `/products/viewed_together`: handles viewed in the most sessions with the inputs' handles, inputs left out. */
export function viewedTogether(model: BuiltModel, handles: readonly string[]): string[] {
  const index = (h: string) => binarySearch(model.handles, h);
  const seeds = handles.map((h) => ({ item: index(h), weight: 1 })).filter((s) => s.item >= 0);
  const scores = vote(model.viewNeighbours, seeds, false);
  for (const { item } of seeds) scores.delete(item);
  return ranked(scores, (j) => model.handles[j]!).map((j) => model.handles[j]!);
}

function binarySearch(sorted: readonly string[], value: string): number {
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

/** Bytes a model holds (its arrays, and the handles at two bytes a character). */
export function modelBytes(model: BuiltModel): number {
  const arrays = [
    model.products,
    model.neighbours.offsets,
    model.neighbours.items,
    model.neighbours.scores,
    model.customers,
    model.affinityOffsets,
    model.affinityItems,
    model.affinityWeights,
    model.viewNeighbours.offsets,
    model.viewNeighbours.items,
    model.viewNeighbours.scores,
  ];
  return arrays.reduce((sum, a) => sum + a.byteLength, 0) + model.handles.reduce((sum, h) => sum + 2 * h.length + 16, 0);
}
