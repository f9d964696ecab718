import { sortedIndexOf, type BuiltModel } from './build.js';
import type { ContentModel } from './content.js';
import type { NeighbourLists } from './neighbours.js';
import type { ShopSettings } from '../shop.js';

/** Seeds given at most, strongest first: bounds a request's work at SEEDS_USED × neighbours kept. */
export const SEEDS_USED = 250;

/**
 * Σ over seeds of weight × s(seed, j), read from sparse neighbour lists; `normalize` scales each row to a best of 1.
 */
function vote(
  lists: NeighbourLists,
  seeds: readonly { item: number; weight: number }[],
  normalize: boolean,
): Map<number, number> {
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
  const seeds = inputIds
    .map((id) => ({ item: sortedIndexOf(model.products, id), weight: 1 }))
    .filter((s) => s.item >= 0);
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
 * for_you's blend (docs/evaluation.md, "for_you"): score_j = own_j / max own + similarity ·
 * vote_j / max vote + content · like_j / max like + popularity · popularity_j / max popularity,
 * where own_j is the customer's affinity (frequency × recency of their purchases), vote_j =
 * Σ_i own_i · s_ij / s_i,best over the bought-together neighbours and like_j the same sum over
 * the content neighbours (type, vendor, tags, title words: the brand and the product line).
 */
export interface ForYouBlend {
  /** Products the customer bought lead, by their own score; the rest follow. */
  purchasesFirst: boolean;
  similarity: number;
  /** Weight of the content neighbours of the customer's purchases (0: not read). */
  content: number;
  popularity: number;
}

/**
 * Chosen on the tuning fold of both evaluation logs (docs/evaluation.md, the first fold: its orders
 * end by the second's cut): of every blend tried, the best lower end, over both logs, of the paired
 * interval over "previous purchases, then trending"; the three later folds test the choice.
 */
export const FOR_YOU_BLEND: ForYouBlend = { purchasesFirst: true, similarity: 0.1, content: 0.1, popularity: 0.3 };

/**
 * A shop's for_you blend: the default, or the weights it set. The best blend differed between the
 * evaluation's two logs (docs/evaluation.md), so a shop can move it; purchases always lead.
 */
export function forYouBlendOf(settings: ShopSettings): ForYouBlend {
  return {
    purchasesFirst: true,
    similarity: settings.for_you_similarity ?? FOR_YOU_BLEND.similarity,
    content: settings.for_you_content ?? FOR_YOU_BLEND.content,
    popularity: settings.for_you_popularity ?? FOR_YOU_BLEND.popularity,
  };
}

/**
 * Dense per-product accumulators over a model's catalog, reused from request to request (the request
 * thread runs one at a time) and cleared through the list of products touched: a request costs what
 * it touches, not the catalog's size.
 */
class Scratch {
  readonly own: Float64Array;
  readonly votes: Float64Array;
  readonly likes: Float64Array;
  readonly touched: number[] = [];
  private readonly seen: Uint8Array;
  /** Each content product's index in the model (−1: never bought), for the content model last read. */
  private contentIndex: { content: ContentModel; items: Int32Array } | null = null;

  constructor(size: number) {
    this.own = new Float64Array(size);
    this.votes = new Float64Array(size);
    this.likes = new Float64Array(size);
    this.seen = new Uint8Array(size);
  }

  touch(j: number): void {
    if (this.seen[j] === 0) {
      this.seen[j] = 1;
      this.touched.push(j);
    }
  }

  /**
   * The model index of every product of `content`, built once per content model (a request then
   * looks up, not searches).
   */
  modelIndexOf(model: BuiltModel, content: ContentModel): Int32Array {
    if (this.contentIndex?.content !== content)
      this.contentIndex = { content, items: Int32Array.from(content.ids, (id) => sortedIndexOf(model.products, id)) };
    return this.contentIndex.items;
  }

  clear(): void {
    for (const j of this.touched) {
      this.own[j] = 0;
      this.votes[j] = 0;
      this.likes[j] = 0;
      this.seen[j] = 0;
    }
    this.touched.length = 0;
  }
}

const scratches = new WeakMap<BuiltModel, Scratch>();

/**
 * `/products/for_you`: the customer's own purchases (frequency × recency), their neighbours and
 * recent popularity, blended as FOR_YOU_BLEND says. Viewed products vote for their neighbours only
 * (they are not bought): a visitor with views alone is ranked by those neighbours and popularity.
 * Products in `exclude` are left out; a visitor with neither purchases nor views gets [] (the
 * caller's fallback). Ties go to the lower index (= the lower product id): the same model and
 * seeds always give the same list.
 */
export function forYou(
  model: BuiltModel,
  affinities: readonly Seed[],
  views: readonly Seed[],
  exclude: ReadonlySet<number>,
  blend: ForYouBlend = FOR_YOU_BLEND,
  content: ContentModel | null = null,
): number[] {
  let scratch = scratches.get(model);
  if (!scratch) {
    scratch = new Scratch(model.products.length);
    scratches.set(model, scratch);
  }
  try {
    return blended(model, scratch, affinities, views, exclude, blend, blend.content > 0 ? content : null);
  } finally {
    scratch.clear();
  }
}

function blended(
  model: BuiltModel,
  scratch: Scratch,
  affinities: readonly Seed[],
  views: readonly Seed[],
  exclude: ReadonlySet<number>,
  blend: ForYouBlend,
  content: ContentModel | null,
): number[] {
  const lists = model.neighbours;
  const { own, votes, likes, touched } = scratch;
  let voteMax = 0;
  let ownMax = 0;
  for (const seed of [...affinities, ...views].slice(0, SEEDS_USED)) {
    const item = sortedIndexOf(model.products, seed.productId);
    if (item < 0) continue;
    const start = lists.offsets[item]!;
    const end = lists.offsets[item + 1]!;
    const scale = start === end ? 0 : seed.weight / lists.scores[start]!;
    for (let n = start; n < end; n++) {
      const j = lists.items[n]!;
      scratch.touch(j);
      votes[j]! += scale * lists.scores[n]!;
      voteMax = Math.max(voteMax, votes[j]!);
    }
  }
  for (const seed of affinities) {
    const item = sortedIndexOf(model.products, seed.productId);
    if (item < 0) continue;
    scratch.touch(item);
    own[item]! += seed.weight;
    ownMax = Math.max(ownMax, own[item]!);
  }
  const likeMax = content ? contentVotes(model, scratch, content, affinities) : 0;
  if (touched.length === 0) return [];
  const popularMax = model.popular.length > 0 ? model.popularity[model.popular[0]!]! : 0;
  if (blend.popularity > 0) for (const j of model.popular) scratch.touch(j);
  const lead = 2 + blend.similarity + blend.content + blend.popularity;
  const kept: number[] = [];
  const score = new Float64Array(touched.length);
  for (const j of touched) {
    if (exclude.size > 0 && exclude.has(model.products[j]!)) continue;
    const value =
      (ownMax > 0 ? own[j]! / ownMax : 0) +
      (voteMax > 0 ? (blend.similarity * votes[j]!) / voteMax : 0) +
      (likeMax > 0 ? (blend.content * likes[j]!) / likeMax : 0) +
      (popularMax > 0 ? (blend.popularity * model.popularity[j]!) / popularMax : 0) +
      (blend.purchasesFirst && own[j]! > 0 ? lead : 0);
    if (value <= 0) continue;
    score[kept.length] = value;
    kept.push(j);
  }
  const order = Int32Array.from(kept.keys());
  order.sort((a, b) => score[b]! - score[a]! || kept[a]! - kept[b]!);
  return Array.from(order, (k) => model.products[kept[k]!]!);
}

/**
 * like_j = Σ over the customer's purchases i of own_i · c_ij / c_i,best (content neighbours, rows
 * scaled to a best of 1), for products the model knows (bought at least once); returns max like.
 */
function contentVotes(model: BuiltModel, scratch: Scratch, content: ContentModel, affinities: readonly Seed[]): number {
  const { offsets, items, scores } = content.lists;
  const inModel = scratch.modelIndexOf(model, content);
  let likeMax = 0;
  for (const seed of affinities.slice(0, SEEDS_USED)) {
    const row = sortedIndexOf(content.ids, seed.productId);
    if (row < 0 || offsets[row] === offsets[row + 1]) continue;
    const scale = seed.weight / scores[offsets[row]!]!;
    for (let n = offsets[row]!; n < offsets[row + 1]!; n++) {
      const j = inModel[items[n]!]!;
      if (j < 0) continue;
      scratch.touch(j);
      scratch.likes[j]! += scale * scores[n]!;
      likeMax = Math.max(likeMax, scratch.likes[j]!);
    }
  }
  return likeMax;
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
  return (
    modelArrays(model).reduce((sum, a) => sum + a.byteLength, 0) +
    model.handles.reduce((sum, h) => sum + 2 * h.length + 16, 0)
  );
}
