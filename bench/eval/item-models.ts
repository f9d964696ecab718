/**
 * The strong simple item-to-item baselines of the evaluation (docs/evaluation.md), on the binary
 * baskets × products matrix of a fold's training orders: raw co-occurrence, item-kNN cosine,
 * RP3beta, and EASE (a closed-form linear item model) on the most bought products.
 */
import { buildIncidence, occurrences, type Incidence } from '../../src/domain/models/incidence.js';
import { coOccurrenceRow, RowScratch } from '../../src/domain/models/sar.js';
import { getOrCreate } from '../../src/domain/maps.js';
import { K } from './metrics.js';

/** A users × products matrix over sorted product ids; a user is a basket or a customer. */
export class ItemSpace {
  readonly ids: number[];
  readonly index = new Map<number, number>();
  readonly incidence: Incidence;
  private readonly scratch: RowScratch;
  private readonly rows = new Map<number, ItemRow>();
  private readonly weightsByAlpha = new Map<number, Float64Array>();

  /** `users` lists each user's products (ids); repeats count once. */
  constructor(users: readonly (readonly number[])[]) {
    this.ids = [...new Set(users.flat())].sort((a, b) => a - b);
    for (const [i, id] of this.ids.entries()) this.index.set(id, i);
    const rows: number[] = [];
    const columns: number[] = [];
    users.forEach((items, u) => {
      for (const id of items) {
        rows.push(u);
        columns.push(this.index.get(id)!);
      }
    });
    this.incidence = buildIncidence(rows, columns, users.length, this.ids.length);
    this.scratch = new RowScratch(this.ids.length);
  }

  /** How many users hold the product (c_ii). */
  degree(item: number): number {
    return occurrences(this.incidence, item);
  }

  /** |u|^−alpha for every user u. */
  private userWeights(alpha: number): Float64Array {
    return getOrCreate(this.weightsByAlpha, alpha, () => {
      const { userOffsets, userCount } = this.incidence;
      return Float64Array.from({ length: userCount }, (_, u) => (userOffsets[u + 1]! - userOffsets[u]!) ** -alpha);
    });
  }

  /** Row i of C (c_ij) and, weighted by 1/|user|^alpha, Σ_u∋i,j |u|^−alpha; i itself left out; cached per item. */
  row(item: number, alpha: number): ItemRow {
    const key = item * 8 + Math.round(alpha * 4);
    return getOrCreate(this.rows, key, () => {
      coOccurrenceRow(this.incidence, item, this.scratch, this.userWeights(alpha));
      const items: number[] = [];
      for (let n = 0; n < this.scratch.size; n++)
        if (this.scratch.touched[n] !== item) items.push(this.scratch.touched[n]!);
      return {
        items: Int32Array.from(items),
        counts: Float64Array.from(items, (j) => this.scratch.counts[j]!),
        weighted: Float64Array.from(items, (j) => this.scratch.weights[j]!),
      };
    });
  }
}

/** One item's row of C: the items sharing a user with it, c_ij and the weighted sum. */
export interface ItemRow {
  items: Int32Array;
  counts: Float64Array;
  weighted: Float64Array;
}

/** How an item-to-item baseline scores j given input i, from c_ij, Σ_u |u|^−α, c_ii and c_jj. */
export type PairRule = {
  name: string;
  alpha: number;
  score: (cij: number, wij: number, cii: number, cjj: number) => number;
};

export const COOCCURRENCE: PairRule = { name: 'co-occurrence counts', alpha: 0, score: (c) => c };
export const ITEM_KNN: PairRule = { name: 'item-kNN cosine', alpha: 0, score: (c, _w, a, b) => c / Math.sqrt(a * b) };
/** RP3beta (Paudel et al. 2017): random-walk transition i→u→j with |u|^−α, divided by popularity c_jj^β. */
export const rp3beta = (alpha: number, beta: number): PairRule => ({
  name: `RP3beta α=${alpha} β=${beta}`,
  alpha,
  score: (_c, w, a, b) => w / a ** alpha / b ** beta,
});

/** Scores every product against weighted inputs: Σ_i weight_i · rule(i, j) (dense over the space's items). */
export function itemScores(
  space: ItemSpace,
  rule: PairRule,
  inputs: readonly { id: number; weight: number }[],
): Map<number, number> {
  const totals = new Float64Array(space.ids.length);
  const touched: number[] = [];
  for (const { id, weight } of inputs) {
    const i = space.index.get(id);
    if (i === undefined) continue;
    const cii = space.degree(i);
    const row = space.row(i, rule.alpha);
    for (let n = 0; n < row.items.length; n++) {
      const j = row.items[n]!;
      const s = rule.score(row.counts[n]!, row.weighted[n]!, cii, space.degree(j));
      if (s <= 0) continue;
      if (totals[j] === 0) touched.push(j);
      totals[j]! += weight * s;
    }
  }
  return new Map(touched.map((j) => [space.ids[j]!, totals[j]!]));
}

/** The `k` best ids by score descending, then id ascending (a bounded insertion: no full sort). */
export function rankScores(scores: ReadonlyMap<number, number>, k = 3 * K): number[] {
  const best: [number, number][] = [];
  for (const entry of scores) {
    const worse = (a: [number, number], b: [number, number]) => a[1] < b[1] || (a[1] === b[1] && a[0] > b[0]);
    if (best.length === k && !worse(best[k - 1]!, entry)) continue;
    let at = best.length === k ? k - 1 : best.length;
    while (at > 0 && worse(best[at - 1]!, entry)) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = entry;
    if (best.length > k) best.length = k;
  }
  return best.map(([id]) => id);
}

/**
 * EASE (Steck 2019): B = I − P·diag(1/diag(P)) with P = (XᵀX + λI)⁻¹, over the `top` most held
 * products only (a dense top × top inverse; the rest of the catalogue is not scored).
 */
export class Ease {
  readonly ids: number[];
  private readonly index = new Map<number, number>();
  private readonly weights: Float64Array;

  constructor(space: ItemSpace, top: number, lambda: number) {
    const kept = space.ids
      .map((_, i) => i)
      .sort((a, b) => space.degree(b) - space.degree(a) || a - b)
      .slice(0, top);
    const n = kept.length;
    for (const [k, item] of kept.entries()) this.index.set(space.ids[item]!, k);
    this.ids = kept.map((item) => space.ids[item]!);
    const local = new Map(kept.map((item, k) => [item, k]));
    const gram = new Float64Array(n * n);
    kept.forEach((item, a) => {
      gram[a * n + a] = space.degree(item) + lambda;
      const row = space.row(item, 0);
      for (let m = 0; m < row.items.length; m++) {
        const b = local.get(row.items[m]!);
        if (b !== undefined) gram[a * n + b] = row.counts[m]!;
      }
    });
    const p = invertSymmetric(gram, n);
    for (let a = 0; a < n; a++) {
      const d = p[a * n + a]!;
      for (let b = 0; b < n; b++) p[b * n + a] = a === b ? 0 : -p[b * n + a]! / d;
    }
    this.weights = p;
  }

  /** Σ_i weight_i · B_ij for every kept product j. */
  scores(inputs: readonly { id: number; weight: number }[]): Map<number, number> {
    const n = this.ids.length;
    const total = new Float64Array(n);
    for (const { id, weight } of inputs) {
      const a = this.index.get(id);
      if (a === undefined) continue;
      for (let b = 0; b < n; b++) total[b]! += weight * this.weights[a * n + b]!;
    }
    const out = new Map<number, number>();
    for (let b = 0; b < n; b++) if (total[b] !== 0) out.set(this.ids[b]!, total[b]!);
    return out;
  }
}

/** The inverse of a symmetric positive definite n × n matrix (Gauss–Jordan in place, no pivoting needed). */
function invertSymmetric(matrix: Float64Array, n: number): Float64Array {
  const a = matrix;
  for (let k = 0; k < n; k++) {
    const pivot = a[k * n + k]!;
    const rowK = k * n;
    for (let j = 0; j < n; j++) a[rowK + j]! /= pivot;
    a[rowK + k] = 1 / pivot;
    for (let i = 0; i < n; i++) {
      if (i === k) continue;
      const rowI = i * n;
      const factor = a[rowI + k]!;
      if (factor === 0) continue;
      a[rowI + k] = 0;
      for (let j = 0; j < n; j++) a[rowI + j]! -= factor * a[rowK + j]!;
    }
  }
  return a;
}
