import { occurrences, type Incidence } from './incidence.js';

/**
 * Item similarity as Microsoft's SAR defines it (docs/lists.md, *The model*): C = AᵀA over the
 * binary users × items matrix A, entries below the support threshold set to 0 (the diagonal
 * too), then `count` = c_ij, `jaccard` = c_ij / (c_ii + c_jj − c_ij), `lift` = c_ij / (c_ii · c_jj).
 */
export type SarSimilarity = 'count' | 'jaccard' | 'lift';
export const SAR_SIMILARITIES: readonly SarSimilarity[] = ['count', 'jaccard', 'lift'];

/** Who a row of A is: a storefront customer, or one order (a basket). */
export type Basis = 'customer' | 'order';
export const BASES: readonly Basis[] = ['customer', 'order'];

/** s_ij from the co-occurrence counts; 0 below the support threshold. */
export function sarScore(similarity: SarSimilarity, cij: number, cii: number, cjj: number, threshold: number): number {
  if (cij < threshold || cij === 0) return 0;
  if (similarity === 'count') return cij;
  if (similarity === 'jaccard') return cij / (cii + cjj - cij);
  return cij / (cii * cjj);
}

/** Reusable per-item accumulators, so a row costs only the items it touches. */
export class RowScratch {
  readonly counts: Int32Array;
  readonly weights: Float64Array;
  readonly touched: Int32Array;
  size = 0;

  constructor(itemCount: number) {
    this.counts = new Int32Array(itemCount);
    this.weights = new Float64Array(itemCount);
    this.touched = new Int32Array(itemCount);
  }

  /** Forgets the last row. */
  clear(): void {
    for (let n = 0; n < this.size; n++) {
      const j = this.touched[n]!;
      this.counts[j] = 0;
      this.weights[j] = 0;
    }
    this.size = 0;
  }
}

/**
 * Row i of C into `scratch`: c_ij for every j sharing a user with i (i itself included), and,
 * with `userWeights`, the same sum weighted per user (e.g. by the age of an order).
 */
export function coOccurrenceRow(
  incidence: Incidence,
  item: number,
  scratch: RowScratch,
  userWeights?: Float64Array,
): void {
  scratch.clear();
  const { itemOffsets, itemUsers, userOffsets, userItems } = incidence;
  for (let a = itemOffsets[item]!; a < itemOffsets[item + 1]!; a++) {
    const user = itemUsers[a]!;
    const weight = userWeights ? userWeights[user]! : 1;
    for (let b = userOffsets[user]!; b < userOffsets[user + 1]!; b++) {
      const j = userItems[b]!;
      if (scratch.counts[j] === 0) scratch.touched[scratch.size++] = j;
      scratch.counts[j]!++;
      scratch.weights[j]! += weight;
    }
  }
}

/** One neighbour of an item: its index, similarity and raw co-occurrence count c_ij. */
export interface SarNeighbour {
  item: number;
  score: number;
  coOccurrences: number;
}

/**
 * The SAR neighbours of one item, exactly: every other item with a non-zero similarity, by
 * score descending, then by `order(item)` ascending (the product id).
 */
export function sarNeighbours(
  incidence: Incidence,
  item: number,
  options: { similarity: SarSimilarity; threshold: number; order: (item: number) => number },
): SarNeighbour[] {
  const scratch = new RowScratch(incidence.itemCount);
  coOccurrenceRow(incidence, item, scratch);
  const cii = occurrences(incidence, item);
  const out: SarNeighbour[] = [];
  for (let n = 0; n < scratch.size; n++) {
    const j = scratch.touched[n]!;
    if (j === item) continue;
    const cij = scratch.counts[j]!;
    const score = sarScore(options.similarity, cij, cii, occurrences(incidence, j), options.threshold);
    if (score > 0) out.push({ item: j, score, coOccurrences: cij });
  }
  return out.sort((a, b) => b.score - a.score || options.order(a.item) - options.order(b.item));
}
