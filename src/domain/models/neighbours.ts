import { occurrences, type Incidence } from './incidence.js';
import { coOccurrenceRow, RowScratch } from './sar.js';

/**
 * The top neighbours of every item, sparse (compressed rows): item i's neighbours are
 * `items[offsets[i] .. offsets[i + 1])` with their `scores`, best first, then by id.
 */
export interface NeighbourLists {
  readonly offsets: Int32Array;
  readonly items: Int32Array;
  readonly scores: Float32Array;
}

/**
 * A pair's score from its counts: c_ij (users holding both), w_ij (the same, weighted per user),
 * c_ii and c_jj. Zero or less means "not a neighbour".
 */
export type PairScore = (cij: number, wij: number, cii: number, cjj: number) => number;

export interface NeighbourOptions {
  /** How many neighbours each item keeps. */
  k: number;
  /** Pairs with c_ij below this are not neighbours (SAR's support threshold). */
  threshold: number;
  /** A weight per user (the row of A), e.g. by the age of an order; 1 when absent. */
  userWeights?: Float64Array;
  /** The external id of each item: ties go to the lower id. */
  ids: ArrayLike<number>;
}

/** Builds every item's top-k neighbours under `score` (work grows with Σ over users of |items|²). */
export function buildNeighbourLists(incidence: Incidence, score: PairScore, options: NeighbourOptions): NeighbourLists {
  const { k, threshold, userWeights, ids } = options;
  const scratch = new RowScratch(incidence.itemCount);
  const best = new TopK(k, ids);
  const offsets = new Int32Array(incidence.itemCount + 1);
  const items: number[] = [];
  const scores: number[] = [];
  for (let i = 0; i < incidence.itemCount; i++) {
    offsets[i] = items.length;
    const cii = occurrences(incidence, i);
    if (cii < Math.max(threshold, 1)) continue;
    coOccurrenceRow(incidence, i, scratch, userWeights);
    best.clear();
    for (let n = 0; n < scratch.size; n++) {
      const j = scratch.touched[n]!;
      const cij = scratch.counts[j]!;
      if (j === i || cij < threshold) continue;
      const s = Math.fround(score(cij, scratch.weights[j]!, cii, occurrences(incidence, j)));
      if (s > 0) best.offer(j, s);
    }
    best.drain(items, scores);
  }
  offsets[incidence.itemCount] = items.length;
  return { offsets, items: Int32Array.from(items), scores: Float32Array.from(scores) };
}

/**
 * The k best (score descending, then id ascending) of the items
 * offered, kept in a min-heap (also used by content neighbours).
 */
export class TopK {
  private readonly heapItems: Int32Array;
  private readonly heapScores: Float64Array;
  private size = 0;

  constructor(
    private readonly k: number,
    private readonly ids: ArrayLike<number>,
  ) {
    this.heapItems = new Int32Array(k);
    this.heapScores = new Float64Array(k);
  }

  clear(): void {
    this.size = 0;
  }

  /** Whether a ranks below b (lower score, or the same score and a higher id). */
  private worse(aItem: number, aScore: number, bItem: number, bScore: number): boolean {
    return aScore < bScore || (aScore === bScore && this.ids[aItem]! > this.ids[bItem]!);
  }

  offer(item: number, score: number): void {
    if (this.k === 0) return;
    if (this.size < this.k) {
      this.heapItems[this.size] = item;
      this.heapScores[this.size] = score;
      this.up(this.size++);
    } else if (this.worse(this.heapItems[0]!, this.heapScores[0]!, item, score)) {
      this.heapItems[0] = item;
      this.heapScores[0] = score;
      this.down(0);
    }
  }

  /** Appends the kept items best first and empties the heap. */
  drain(items: number[], scores: number[]): void {
    const start = items.length;
    while (this.size > 0) {
      items.push(this.heapItems[0]!);
      scores.push(this.heapScores[0]!);
      this.size--;
      this.heapItems[0] = this.heapItems[this.size]!;
      this.heapScores[0] = this.heapScores[this.size]!;
      this.down(0);
    }
    reverseFrom(items, start);
    reverseFrom(scores, start);
  }

  private swap(a: number, b: number): void {
    const item = this.heapItems[a]!;
    const score = this.heapScores[a]!;
    this.heapItems[a] = this.heapItems[b]!;
    this.heapScores[a] = this.heapScores[b]!;
    this.heapItems[b] = item;
    this.heapScores[b] = score;
  }

  private up(at: number): void {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.worse(this.heapItems[at]!, this.heapScores[at]!, this.heapItems[parent]!, this.heapScores[parent]!))
        return;
      this.swap(at, parent);
      at = parent;
    }
  }

  private down(at: number): void {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let worst = at;
      if (
        left < this.size &&
        this.worse(this.heapItems[left]!, this.heapScores[left]!, this.heapItems[worst]!, this.heapScores[worst]!)
      )
        worst = left;
      if (
        right < this.size &&
        this.worse(this.heapItems[right]!, this.heapScores[right]!, this.heapItems[worst]!, this.heapScores[worst]!)
      )
        worst = right;
      if (worst === at) return;
      this.swap(at, worst);
      at = worst;
    }
  }
}

function reverseFrom(list: number[], start: number): void {
  for (let a = start, b = list.length - 1; a < b; a++, b--) [list[a], list[b]] = [list[b]!, list[a]!];
}

/** Bytes held by the lists' arrays. */
export function neighbourBytes(lists: NeighbourLists): number {
  return lists.offsets.byteLength + lists.items.byteLength + lists.scores.byteLength;
}
