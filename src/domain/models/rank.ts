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

/**
 * Items in `lead` first, then by score descending, then by index ascending: the model's products and
 * handles are sorted, so that is the lower product id or handle. The comparator reads plain arrays
 * (no map look-ups): for_you sorts a thousand candidates per request.
 */
function ranked(scores: Map<number, number>, lead?: ReadonlySet<number>): number[] {
  const entries: [item: number, score: number, led: number][] = [];
  for (const [j, score] of scores) entries.push([j, score, lead?.has(j) ? 0 : 1]);
  entries.sort((a, b) => a[2] - b[2] || b[1] - a[1] || a[0] - b[0]);
  return entries.map((e) => e[0]);
}

/** `/products/recommended`: products by Σ of their similarity to the inputs, inputs left out. */
export function recommendedFor(model: BuiltModel, inputIds: readonly number[]): number[] {
  const seeds = inputIds.map((id) => ({ item: sortedIndexOf(model.products, id), weight: 1 })).filter((s) => s.item >= 0);
  const scores = vote(model.neighbours, seeds, false);
  for (const { item } of seeds) scores.delete(item);
  return ranked(scores).map((j) => model.products[j]!);
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
 * k of for_you's blend with popularity: the personal score is weighed by α = n / (n + k), n the
 * distinct products the customer bought, so with k > 0 a one-purchase customer leans on what sells
 * and a long history on itself. 0, the blend off: on validation splits carved from the training
 * orders of both evaluation logs every k > 0 scored below the personal score alone, so none was
 * made the default (the sweep: docs/evaluation.md, "for_you and popularity").
 */
export const POPULARITY_SHRINKAGE = 0;

export interface ForYouOptions {
  /** A neighbour's vote against the customer's own affinity (NEIGHBOUR_VOTE). */
  neighbourVote?: number;
  /** k of α = n / (n + k); 0 ranks by the personal score alone (POPULARITY_SHRINKAGE). */
  shrinkage?: number;
  /** Products the customer bought lead when they are kept (default true). */
  purchasesFirst?: boolean;
}

/**
 * `/products/for_you`: personal_j = Σ_i affinity_i · s_ij with s_jj = 1 and the other similarities
 * scaled to NEIGHBOUR_VOTE at best; score_j = α · personal_j / max personal + (1 − α) · popularity_j /
 * max popularity, over the scored products and the model's most popular ones; products bought
 * first, then by score. Viewed products vote for their neighbours only (they are not bought) and do
 * not count in n: a visitor with views alone is ranked by the neighbours of what they viewed.
 * Products in `exclude` (already bought) are left out; an unknown visitor gets [] (the caller's fallback).
 */
export function forYou(
  model: BuiltModel,
  affinities: readonly Seed[],
  views: readonly Seed[],
  exclude: ReadonlySet<number>,
  options: ForYouOptions = {},
): number[] {
  const neighbourVote = options.neighbourVote ?? NEIGHBOUR_VOTE;
  const shrinkage = options.shrinkage ?? POPULARITY_SHRINKAGE;
  const items = [...affinities, ...views]
    .map((s) => ({ item: sortedIndexOf(model.products, s.productId), weight: s.weight * neighbourVote }))
    .filter((s) => s.item >= 0);
  const scores = vote(model.neighbours, items, true);
  const bought = new Set<number>();
  for (const seed of affinities) {
    const item = sortedIndexOf(model.products, seed.productId);
    if (item < 0) continue;
    bought.add(item);
    scores.set(item, (scores.get(item) ?? 0) + seed.weight);
  }
  if (scores.size === 0) return [];
  const n = bought.size;
  const alpha = shrinkage <= 0 || n === 0 ? 1 : n / (n + shrinkage);
  if (alpha < 1) {
    let best = 0;
    for (const s of scores.values()) best = Math.max(best, s);
    const top = model.popular.length > 0 ? model.popularity[model.popular[0]!]! : 0;
    const popularity = (j: number) => (top > 0 ? model.popularity[j]! / top : 0);
    for (const [j, s] of scores) scores.set(j, (alpha * s) / best + (1 - alpha) * popularity(j));
    for (const j of model.popular) if (!scores.has(j)) scores.set(j, (1 - alpha) * popularity(j));
  }
  const first = options.purchasesFirst ?? true;
  return ranked(scores, first ? bought : undefined)
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
  return ranked(scores).map((j) => model.handles[j]!);
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
    model.popularity,
    model.popular,
  ];
  return arrays.reduce((sum, a) => sum + a.byteLength, 0) + model.handles.reduce((sum, h) => sum + 2 * h.length + 16, 0);
}
