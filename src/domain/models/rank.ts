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
 * Items by score descending, then by index ascending: the model's products and handles are sorted,
 * so that is the lower product id or handle. The comparator reads plain arrays, not the map.
 */
function ranked(scores: Map<number, number>): number[] {
  const entries: [item: number, score: number][] = [];
  for (const [j, score] of scores) entries.push([j, score]);
  entries.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
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
  const lists = model.neighbours;
  // Dense accumulators over the catalog (a few tens of kilobytes), so neither the votes nor the sort touch a map.
  const count = model.products.length;
  const scores = new Float64Array(count);
  const state = new Uint8Array(count); // 1 scored, 2 bought (and scored)
  const touched: number[] = [];
  const add = (j: number, x: number) => {
    if (state[j] === 0) {
      state[j] = 1;
      touched.push(j);
    }
    scores[j]! += x;
  };
  const seeds = [...affinities, ...views].slice(0, SEEDS_USED);
  for (const seed of seeds) {
    const item = sortedIndexOf(model.products, seed.productId);
    if (item < 0) continue;
    const start = lists.offsets[item]!;
    const end = lists.offsets[item + 1]!;
    if (start === end) continue;
    const scale = (seed.weight * neighbourVote) / lists.scores[start]!;
    for (let n = start; n < end; n++) add(lists.items[n]!, scale * lists.scores[n]!);
  }
  let bought = 0;
  for (const seed of affinities) {
    const item = sortedIndexOf(model.products, seed.productId);
    if (item < 0) continue;
    add(item, seed.weight);
    if (state[item] !== 2) bought++;
    state[item] = 2;
  }
  if (touched.length === 0) return [];
  const alpha = shrinkage <= 0 || bought === 0 ? 1 : bought / (bought + shrinkage);
  if (alpha < 1) {
    let best = 0;
    for (const j of touched) best = Math.max(best, scores[j]!);
    const top = model.popular.length > 0 ? model.popularity[model.popular[0]!]! : 0;
    const popularity = (j: number) => (top > 0 ? model.popularity[j]! / top : 0);
    for (const j of touched) scores[j] = (alpha * scores[j]!) / best + (1 - alpha) * popularity(j);
    for (const j of model.popular) if (state[j] === 0) add(j, (1 - alpha) * popularity(j));
  }
  const first = options.purchasesFirst ?? true;
  const led = (j: number) => (first && state[j] === 2 ? 0 : 1);
  const kept = Int32Array.from(exclude.size === 0 ? touched : touched.filter((j) => !exclude.has(model.products[j]!)));
  // Purchases first (when kept), then by score, then the lower index (= the lower product id).
  kept.sort((a, b) => led(a) - led(b) || scores[b]! - scores[a]! || a - b);
  return Array.from(kept, (j) => model.products[j]!);
}

/** A product and how much a visitor is drawn to it. */
export interface Seed {
  productId: number;
  weight: number;
}

/** `/products/viewed_together`: handles viewed in the most sessions with the inputs' handles, inputs left out. */
export function viewedTogether(model: BuiltModel, handles: readonly string[]): string[] {
  const index = (h: string) => sortedIndexOf(model.handles, h);
  const seeds = handles.map((h) => ({ item: index(h), weight: 1 })).filter((s) => s.item >= 0);
  const scores = vote(model.viewNeighbours, seeds, false);
  for (const { item } of seeds) scores.delete(item);
  return ranked(scores).map((j) => model.handles[j]!);
}

/** Every typed array of a model: what its bytes count, and what the worker moves to the request thread. */
export function modelArrays(model: BuiltModel): ArrayBufferView[] {
  return [
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
}

/** Bytes a model holds (its arrays, and the handles at two bytes a character). */
export function modelBytes(model: BuiltModel): number {
  return modelArrays(model).reduce((sum, a) => sum + a.byteLength, 0) + model.handles.reduce((sum, h) => sum + 2 * h.length + 16, 0);
}
