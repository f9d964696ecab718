/**
 * How shared baskets are turned into scores. `recency`: each shared basket counts 0.5^(age / 30 days),
 * chosen by `npm run eval` (README, *Measured*); `count` is the raw co-occurrence baseline.
 */
export type CoPurchaseWeighting = 'count' | 'cosine' | 'recency';

export const RECENCY_HALF_LIFE_DAYS = 30;

/**
 * Products bought together with the inputs: for each basket holding an input, every other product
 * in it scores; `cosine` divides by √(baskets of input × baskets of candidate) so that products in
 * every basket do not win everywhere. Returns product ids by score, then id.
 */
export function coPurchased(
  inputs: readonly number[],
  baskets: readonly (readonly number[])[],
  basketsOf: ReadonlyMap<number, readonly number[]>,
  weighting: CoPurchaseWeighting,
  /** Age in days of each basket (for `recency`). */
  basketAges: readonly number[] = [],
): number[] {
  const inputSet = new Set(inputs);
  const score = new Map<number, number>();
  for (const input of inputSet) {
    const holding = basketsOf.get(input) ?? [];
    const counts = new Map<number, number>();
    for (const b of holding) {
      const weight = weighting === 'recency' ? 0.5 ** ((basketAges[b] ?? 0) / RECENCY_HALF_LIFE_DAYS) : 1;
      for (const other of baskets[b]!) if (!inputSet.has(other)) counts.set(other, (counts.get(other) ?? 0) + weight);
    }
    for (const [other, count] of counts) {
      const weight = weighting === 'cosine' ? count / Math.sqrt(holding.length * (basketsOf.get(other)?.length ?? 1)) : count;
      score.set(other, (score.get(other) ?? 0) + weight);
    }
  }
  return [...score.keys()].sort((a, b) => score.get(b)! - score.get(a)! || a - b);
}
