import { parseMoney } from '../catalog/money.js';
import { isListable, splitTags, type Product } from '../catalog/product.js';
import { titleWords, type ContentProfile } from '../ranking/similarity.js';
import { sortedIndexOf } from './build.js';
import { neighbourBytes, TopK, type NeighbourLists } from './neighbours.js';
import { getOrCreate } from '../maps.js';

/** Content neighbours kept per product: enough for a full answer of 50 after filters. */
export const CONTENT_KEPT = 50;
/** Candidates scored per product at most: the rarest shared features are read first. */
export const CONTENT_BUDGET = 2000;

/** A product as content similarity sees it; only listable products become neighbours. */
export interface ContentItem extends ContentProfile {
  listable: boolean;
}

/** Every product's top content neighbours: ids ascending, and neighbour lists by index into them. */
export interface ContentModel {
  readonly ids: Float64Array;
  readonly lists: NeighbourLists;
}

interface Interned {
  type: number;
  vendor: number;
  tags: Int32Array;
  words: Int32Array;
  band: number;
}

/**
 * Precomputes content similarity (docs/lists.md, the similar_products row): for every product, the
 * listable products most like it under `similarity()`, computed once per model build in the
 * worker so a request costs a lookup and a merge. Candidates come from products sharing a type,
 * vendor, tag or title word, rarest features first, at most CONTENT_BUDGET per product: a feature
 * every product has cannot make the work quadratic. Scores equal `similarity()` exactly.
 */
export function buildContentModel(items: readonly ContentItem[]): ContentModel {
  const sorted = [...items].sort((a, b) => a.id - b.id);
  const ids = Float64Array.from(sorted.map((p) => p.id));
  const dictionary = new Map<string, number>();
  const intern = (key: string) => {
    const id = getOrCreate(dictionary, key, () => dictionary.size);
    return id;
  };
  const interned: Interned[] = sorted.map((p) => ({
    type: p.productType === '' ? -1 : intern(`t:${p.productType.toLowerCase()}`),
    vendor: p.vendor === '' ? -1 : intern(`v:${p.vendor.toLowerCase()}`),
    tags: Int32Array.from(new Set(p.tags.map((t) => intern(`g:${t}`)))).sort(),
    words: Int32Array.from(new Set(p.titleWords.map((w) => intern(`w:${w}`)))).sort(),
    band: p.priceBand,
  }));
  const postings: number[][] = Array.from({ length: dictionary.size }, () => []);
  interned.forEach((p, i) => {
    if (!sorted[i]!.listable) return;
    for (const f of featuresOf(p)) postings[f]!.push(i);
  });
  const best = new TopK(CONTENT_KEPT, ids);
  const offsets = new Int32Array(sorted.length + 1);
  const outItems: number[] = [];
  const outScores: number[] = [];
  const seen = new Uint32Array(sorted.length);
  for (let i = 0; i < sorted.length; i++) {
    offsets[i] = outItems.length;
    best.clear();
    const stamp = i + 1;
    let gathered = 0;
    const features = featuresOf(interned[i]!).sort((a, b) => postings[a]!.length - postings[b]!.length);
    // The budget counts candidates, not features: one common feature alone cannot make the work quadratic.
    gather: for (const f of features) {
      for (const j of postings[f]!) {
        if (j === i || seen[j] === stamp) continue;
        if (gathered >= CONTENT_BUDGET) break gather;
        seen[j] = stamp;
        gathered++;
        const score = Math.fround(contentScore(interned[i]!, interned[j]!));
        if (score > 0) best.offer(j, score);
      }
    }
    best.drain(outItems, outScores);
  }
  offsets[sorted.length] = outItems.length;
  return { ids, lists: { offsets, items: Int32Array.from(outItems), scores: Float32Array.from(outScores) } };
}

function featuresOf(p: Interned): number[] {
  const features = [...p.tags, ...p.words];
  if (p.type >= 0) features.push(p.type);
  if (p.vendor >= 0) features.push(p.vendor);
  return features;
}

/** Shared entries of two ascending id arrays. */
function shared(a: Int32Array, b: Int32Array): number {
  let count = 0;
  for (let x = 0, y = 0; x < a.length && y < b.length; ) {
    if (a[x] === b[y]) {
      count++;
      x++;
      y++;
    } else if (a[x]! < b[y]!) x++;
    else y++;
  }
  return count;
}

function jaccard(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  const both = shared(a, b);
  return both / (a.length + b.length - both);
}

/** `similarity()` of ranking/similarity.ts on interned features (the same weights). */
function contentScore(a: Interned, b: Interned): number {
  let score = 0;
  if (a.type >= 0 && a.type === b.type) score += 3;
  if (a.vendor >= 0 && a.vendor === b.vendor) score += 1;
  score += 2 * jaccard(a.tags, b.tags);
  score += 1.5 * jaccard(a.words, b.words);
  if (Math.abs(a.band - b.band) <= 0.5) score += 1;
  return score;
}

/** Products most like the inputs: Σ over inputs of their content scores, best first, then by id; inputs left out. */
export function similarTo(model: ContentModel, inputs: readonly number[]): number[] {
  const scores = new Map<number, number>();
  const inputSet = new Set(inputs);
  for (const id of inputSet) {
    const i = sortedIndexOf(model.ids, id);
    if (i < 0) continue;
    for (let n = model.lists.offsets[i]!; n < model.lists.offsets[i + 1]!; n++) {
      const neighbour = model.ids[model.lists.items[n]!]!;
      if (!inputSet.has(neighbour)) scores.set(neighbour, (scores.get(neighbour) ?? 0) + model.lists.scores[n]!);
    }
  }
  return [...scores.keys()].sort((x, y) => scores.get(y)! - scores.get(x)! || x - y);
}

/** A stored product's content features (price band: log2 of its lowest price). */
export function contentItemOf(product: Product): ContentItem {
  const prices = product.variants.map((v) => parseMoney(v.price) ?? 0);
  const lowest = prices.length === 0 ? 0 : Math.min(...prices) / 10_000;
  return {
    id: product.id,
    productType: product.product_type,
    vendor: product.vendor,
    tags: splitTags(product.tags).map((t) => t.toLowerCase()),
    titleWords: titleWords(product.title),
    priceBand: Math.log2(Math.max(lowest, 0.01)),
    listable: isListable(product),
  };
}

/** Bytes held by a content model. */
export function contentBytes(model: ContentModel): number {
  return model.ids.byteLength + neighbourBytes(model.lists);
}
