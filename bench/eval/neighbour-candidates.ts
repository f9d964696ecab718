/**
 * The customer-neighbour candidates for for_you (docs/evaluation.md, "Customer neighbours"): grids
 * around each paper's reported settings, every one scored on every fold; chosen on the tuning fold.
 */
import type { FoldContext, Lists } from './fold-methods.js';
import { tifuKnn, upCf } from './personal-knn.js';
import { repeatExplore } from './repeat-explore.js';

export interface ListCandidate {
  key: string;
  /** The family a per-family choice is made in (the key's first word). */
  family: string;
  lists: (ctx: FoldContext) => Lists;
}

const num = (x: number) => (x === Infinity ? '∞' : String(x));

export function neighbourCandidates(): ListCandidate[] {
  const out: ListCandidate[] = [];
  // TIFU-kNN: group size m, within-group and between-group decay, neighbours k, own weight α.
  for (const m of [3, 7])
    for (const rb of [0.9, 1])
      for (const rg of [0.6, 0.8])
        for (const k of [50, 300])
          for (const alpha of [0.5, 0.7, 0.9])
            out.push({
              key: `TIFU-kNN m${m} rb ${rb} rg ${rg} k${k} α ${alpha}`,
              family: 'TIFU-kNN',
              lists: (ctx) => tifuKnn(ctx, { m, rb, rg, k, alpha }),
            });
  // UP-CF@r: recency window r (baskets), asymmetric cosine α, locality q; 300 neighbours.
  for (const r of [1, 5, Infinity])
    for (const alpha of [0.25, 0.5, 0.75])
      for (const q of [1, 5])
        out.push({
          key: `UP-CF@r r${num(r)} α ${alpha} q${q}`,
          family: 'UP-CF@r',
          lists: (ctx) => upCf(ctx, { r, alpha, q, k: 300 }),
        });
  // Repeat, then explore: propensity's half-life and own count; explore's neighbours k, trending
  // weight, and the half-life of the neighbours' purchases (what similar customers bought lately).
  for (const halfLifeDays of [30, Infinity])
    for (const ownCount of [false, true])
      for (const k of [50, 300])
        for (const trending of [0, 0.3, 1])
          for (const neighbourHalfLifeDays of [Infinity, 14])
            out.push({
              key:
                `repeat/explore h${num(halfLifeDays)}${ownCount ? ' × own orders' : ''} k${k} trending ${trending}` +
                `${Number.isFinite(neighbourHalfLifeDays) ? ` neighbours h${neighbourHalfLifeDays}` : ''}`,
              family: 'repeat/explore',
              lists: (ctx) => repeatExplore(ctx, { halfLifeDays, ownCount, k, trending, neighbourHalfLifeDays }),
            });
  return out;
}
