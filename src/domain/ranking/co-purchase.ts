/** How co-occurrence counts are turned into scores; chosen by `npm run eval` (see the README). */
export type CoPurchaseWeighting = 'count' | 'cosine';

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
): number[] {
  const inputSet = new Set(inputs);
  const score = new Map<number, number>();
  for (const input of inputSet) {
    const holding = basketsOf.get(input) ?? [];
    const counts = new Map<number, number>();
    for (const b of holding) {
      for (const other of baskets[b]!) if (!inputSet.has(other)) counts.set(other, (counts.get(other) ?? 0) + 1);
    }
    for (const [other, count] of counts) {
      const weight = weighting === 'count' ? count : count / Math.sqrt(holding.length * (basketsOf.get(other)?.length ?? 1));
      score.set(other, (score.get(other) ?? 0) + weight);
    }
  }
  return [...score.keys()].sort((a, b) => score.get(b)! - score.get(a)! || a - b);
}
