/** Per-case ranking metrics at K, catalogue coverage, and paired bootstrap intervals of one method over another. */
import jStat from 'jstat';
import { K } from './metrics.js';

/** One method's per-case values on a fold's cases, in the cases' order (the pairing of the bootstrap). */
export interface CaseScores {
  hr: Float64Array;
  ndcg: Float64Array;
  mrr: Float64Array;
  /** Distinct products recommended in any top K / products in the fold's training catalogue. */
  coverage: number;
}

/**
 * Scores each case's top K against what it bought: hit, NDCG
 * (binary gains, ideal of min(|targets|, K)) and reciprocal rank.
 */
export function scoreCases(
  lists: readonly (readonly number[])[],
  targets: readonly ReadonlySet<number>[],
  catalogue: number,
): CaseScores {
  const n = lists.length;
  const out: CaseScores = { hr: new Float64Array(n), ndcg: new Float64Array(n), mrr: new Float64Array(n), coverage: 0 };
  const shown = new Set<number>();
  for (let c = 0; c < n; c++) {
    const list = lists[c]!.slice(0, K);
    const wanted = targets[c]!;
    let dcg = 0;
    let first = 0;
    list.forEach((id, rank) => {
      shown.add(id);
      if (!wanted.has(id)) return;
      dcg += 1 / Math.log2(rank + 2);
      if (first === 0) first = rank + 1;
    });
    let ideal = 0;
    for (let r = 0; r < Math.min(wanted.size, K); r++) ideal += 1 / Math.log2(r + 2);
    out.hr[c] = first > 0 ? 1 : 0;
    out.ndcg[c] = ideal > 0 ? dcg / ideal : 0;
    out.mrr[c] = first > 0 ? 1 / first : 0;
  }
  out.coverage = catalogue > 0 ? shown.size / catalogue : 0;
  return out;
}

export const mean = (values: Float64Array) =>
  values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length;

/** A seeded uniform generator (mulberry32): the same resamples on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A ratio of means and its 95% paired bootstrap interval. */
export interface Ratio {
  ratio: number;
  low: number;
  high: number;
}

let resamples = 1000;
/** Fewer resamples while iterating (`npm run eval -- --resamples 200`); the reported figures use 1,000. */
export function setResamples(n: number): void {
  resamples = n;
}

/**
 * mean(a) / mean(b) over the same cases, with the 2.5th and 97.5th percentiles of the ratio over
 * 1,000 resamples (setResamples) of the cases (each resample draws the same cases for both: paired).
 */
export function pairedRatio(a: Float64Array, b: Float64Array, seed = 20_261_125): Ratio {
  const n = a.length;
  const random = seeded(seed);
  const ratios: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sa = 0;
    let sb = 0;
    for (let i = 0; i < n; i++) {
      const c = Math.floor(random() * n);
      sa += a[c]!;
      sb += b[c]!;
    }
    ratios.push(sb > 0 ? sa / sb : sa > 0 ? Infinity : 1);
  }
  const base = mean(b);
  return {
    ratio: base > 0 ? mean(a) / base : mean(a) > 0 ? Infinity : 1,
    low: jStat.percentile(ratios, 0.025),
    high: jStat.percentile(ratios, 0.975),
  };
}
