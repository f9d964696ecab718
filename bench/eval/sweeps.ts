/** Offline sweeps of `npm run eval`: the model's similarities, for_you's blend and trending's formula, on the same cases as the service rows. */
import { buildModel, productPopularity, sortedIndexOf, type ModelLine } from '../../src/domain/models/build.js';
import { buildIncidence, KeyIndex } from '../../src/domain/models/incidence.js';
import { buildNeighbourLists, scoreFromSeeds, type PairScore } from '../../src/domain/models/neighbours.js';
import { affinitiesOf, forYou, POPULARITY_SHRINKAGE } from '../../src/domain/models/rank.js';
import { sarScore, type SarSimilarity } from '../../src/domain/models/sar.js';
import { scoreTrending } from '../../src/domain/ranking/trending.js';
import { fill, popularity, purchasesByCustomer } from './baselines.js';
import { K, sample, Tally, scoreShared, type Score } from './metrics.js';
import { DAY_MS, type Invoice } from './retail.js';
import { getOrCreate } from '../../src/domain/maps.js';

export interface BasketCase {
  input: number;
  targets: ReadonlySet<number>;
}

/** The model's order lines of a set of invoices. */
export function modelLines(invoices: readonly Invoice[]): ModelLine[] {
  return invoices.flatMap((o) => [...o.items.keys()].map((productId) => ({ orderId: o.id, productId, customerId: o.customer, createdAt: o.at })));
}

interface Variant {
  key: string;
  basis: 'order' | 'customer';
  threshold: number;
  score: PairScore;
  weight?: (size: number, ageDays: number) => number;
}

const sar = (similarity: SarSimilarity, basis: 'order' | 'customer', threshold = 1): Variant => ({
  key: `sar_${similarity}_${basis}${threshold > 1 ? `_t${threshold}` : ''}`,
  basis,
  threshold,
  score: (c, _w, a, b) => sarScore(similarity, c, a, b, threshold),
});
const weighted = (key: string, halfLife: number, sizePower: number): Variant => ({
  key,
  basis: 'order',
  threshold: 1,
  score: (_c, w) => w,
  weight: (size, age) => 2 ** (-age / halfLife) / size ** sizePower,
});

/** Similarities tried for `recommended`: SAR's three on both bases, and weighted co-occurrence variants. */
export const RECOMMENDED_VARIANTS: readonly Variant[] = [
  sar('count', 'order'),
  sar('count', 'order', 2),
  sar('jaccard', 'order'),
  sar('lift', 'order'),
  sar('count', 'customer'),
  sar('jaccard', 'customer'),
  sar('lift', 'customer'),
  weighted('recency_h365', 365, 0),
  weighted('recency_h90', 90, 0),
  weighted('size_sqrt', Infinity, 0.5),
  weighted('size_1', Infinity, 1),
  weighted('weighted_h180', 180, 0.5),
  weighted('weighted_h365 (default)', 365, 0.5),
];

/** Basket completion for every variant: the input's top neighbours, topped up from `fallback`. */
export function recommendedSweep(
  train: readonly Invoice[],
  reference: number,
  cases: readonly BasketCase[],
  fallback: readonly number[],
): Record<string, Score> {
  const ids = Float64Array.from(new Set(train.flatMap((o) => [...o.items.keys()]))).sort();
  const index = new Map([...ids].map((id, i) => [id, i]));
  const out: Record<string, Score> = {};
  for (const variant of RECOMMENDED_VARIANTS) {
    const users = new KeyIndex<number>();
    const rows: number[] = [];
    const columns: number[] = [];
    const newest: number[] = [];
    for (const o of train) {
      const key = variant.basis === 'order' ? o.id : o.customer;
      if (key === null) continue;
      const u = users.of(key);
      newest[u] = Math.max(newest[u] ?? 0, o.at);
      for (const id of o.items.keys()) {
        rows.push(u);
        columns.push(index.get(id)!);
      }
    }
    const incidence = buildIncidence(rows, columns, users.size, ids.length);
    const weights =
      variant.weight &&
      Float64Array.from({ length: users.size }, (_, u) =>
        variant.weight!(incidence.userOffsets[u + 1]! - incidence.userOffsets[u]!, (reference - newest[u]!) / DAY_MS),
      );
    const lists = buildNeighbourLists(incidence, variant.score, { k: 50, threshold: variant.threshold, ids, ...(weights ? { userWeights: weights } : {}) });
    const tally = new Tally();
    for (const c of cases) {
      const i = index.get(c.input);
      const scores = i === undefined ? new Map<number, number>() : scoreFromSeeds(lists, [{ item: i, weight: 1 }]);
      const ranked = [...scores].sort((a, b) => b[1] - a[1] || ids[a[0]]! - ids[b[0]]!).map(([j]) => ids[j]!);
      tally.add(fill(ranked.slice(0, K), fallback, K, new Set([c.input])), c.targets);
    }
    out[variant.key] = tally.score();
  }
  return out;
}

/** for_you over returning customers, by affinity half-life and neighbour vote, with purchases kept (they rebuy) and left out. */
export function forYouSweep(
  train: readonly Invoice[],
  customers: readonly number[],
  targets: (c: number) => ReadonlySet<number>,
  fallback: readonly number[],
): Record<string, { kept: Score; left_out: Score }> {
  const lines = modelLines(train);
  const out: Record<string, { kept: Score; left_out: Score }> = {};
  for (const halfLife of [30, 180, 365]) {
    const model = buildModel(lines, [], { similarity: 'weighted', threshold: 1, basis: 'order', affinityHalfLifeDays: halfLife });
    for (const vote of [0, 0.02, 0.05, 0.2]) {
      const kept = new Tally();
      const leftOut = new Tally();
      for (const c of customers) {
        const affinities = affinitiesOf(model, c);
        const bought = new Set(affinities.map((a) => a.productId));
        // The blend with popularity off: this sweep is of the personal score alone.
        const options = { neighbourVote: vote, shrinkage: 0, purchasesFirst: false };
        kept.add(fill(forYou(model, affinities, [], new Set(), options).slice(0, K), fallback, K), targets(c));
        leftOut.add(fill(forYou(model, affinities, [], bought, options).slice(0, K), fallback, K, bought), targets(c));
      }
      out[`half_life_${halfLife}_vote_${vote}`] = { kept: kept.score(), left_out: leftOut.score() };
    }
  }
  return out;
}

/** Trending as one list for every validation customer, by what it counts, window and half-life. */
export function trendingSweep(train: readonly Invoice[], reference: number, targets: readonly ReadonlySet<number>[]): Record<string, Score> {
  const sales = train.flatMap((o) => [...o.items].map(([productId, item]) => ({ productId, quantity: item.quantity, at: o.at, orderId: o.id })));
  const out: Record<string, Score> = {};
  for (const counts of ['units', 'orders'] as const) {
    for (const windowDays of [14, 28, 30, 60, 90]) {
      for (const halfLifeDays of [7, 14, 30, 100_000]) {
        const { ranked } = scoreTrending(sales, reference, { windowDays, halfLifeDays, counts });
        out[`${counts}_w${windowDays}_h${halfLifeDays === 100_000 ? 'none' : halfLifeDays}`] = scoreShared(ranked.slice(0, K), targets);
      }
    }
  }
  return out;
}

/** k of for_you's popularity blend α = n / (n + k) tried; 0 is the personal score alone. */
export const SHRINKAGES: readonly number[] = [0, 1, 2, 5, 10, 20, 50, 200];

/**
 * for_you's blend with popularity by shrinkage k, purchases first (and, for k = 0, also without that
 * re-ranking: the previous default): the model built from `fit`, scored on the customers of `check`
 * who bought in `fit` (a deterministic sample), filled as the service fills (popularity, 30 days).
 * Run on a validation split carved from the training orders to choose k, and on the held-out split to report.
 */
export function forYouBlendSweep(
  fit: readonly Invoice[],
  check: readonly Invoice[],
  sampleSize: number,
  seed: number,
): { cases: number; variants: Record<string, { kept: Score; left_out: Score }> } {
  const reference = fit.reduce((max, o) => Math.max(max, o.at), 0);
  const fallback = popularity(fit, 3 * K, reference - 30 * DAY_MS);
  const model = buildModel(modelLines(fit), []);
  const boughtBy = new Map<number, Set<number>>();
  for (const o of check) {
    if (o.customer === null) continue;
    const set = getOrCreate(boughtBy, o.customer, () => new Set());
    for (const id of o.items.keys()) set.add(id);
  }
  const customers = sample(
    [...boughtBy.keys()].filter((c) => affinitiesOf(model, c).length > 0).sort((a, b) => a - b),
    sampleSize,
    seed,
  );
  const out: Record<string, { kept: Score; left_out: Score }> = {};
  // The baselines of the service rows, on these cases: the customer's purchases (units), then popularity; popularity alone.
  const history = purchasesByCustomer(fit);
  const repeat = new Tally();
  const popularOnly = new Tally();
  for (const c of customers) {
    repeat.add(fill(history.get(c)!.slice(0, K), fallback, K), boughtBy.get(c)!);
    popularOnly.add(fill([], fallback, K, new Set(history.get(c)!)), boughtBy.get(c)!);
  }
  out['baseline: purchases, then popularity | popularity'] = { kept: repeat.score(), left_out: popularOnly.score() };
  const lines = modelLines(fit);
  const served = { popularity: model.popularity, popular: model.popular };
  for (const halfLife of [14, 90]) {
    const popular = halfLife === 14 ? served : productPopularity(lines, (id) => sortedIndexOf(model.products, id), model.products.length, reference, halfLife);
    const variants: [string, { shrinkage: number; purchasesFirst: boolean }][] = [
      ...(halfLife === 14
        ? [['k_0_no_lead (previous default)', { shrinkage: 0, purchasesFirst: false }] as [string, { shrinkage: number; purchasesFirst: boolean }]]
        : []),
      ...SHRINKAGES.filter((k) => halfLife === 14 || k > 0).map((k): [string, { shrinkage: number; purchasesFirst: boolean }] => [
        `k_${k}_popularity_h${halfLife}${k === POPULARITY_SHRINKAGE && halfLife === 14 ? ' (default)' : ''}`,
        { shrinkage: k, purchasesFirst: true },
      ]),
    ];
    const variantModel = { ...model, ...popular };
    for (const [key, options] of variants) {
      const kept = new Tally();
      const leftOut = new Tally();
      for (const c of customers) {
        const affinities = affinitiesOf(variantModel, c);
        const bought = new Set(affinities.map((a) => a.productId));
        kept.add(fill(forYou(variantModel, affinities, [], new Set(), options).slice(0, K), fallback, K), boughtBy.get(c)!);
        leftOut.add(fill(forYou(variantModel, affinities, [], bought, options).slice(0, K), fallback, K, bought), boughtBy.get(c)!);
      }
      out[key] = { kept: kept.score(), left_out: leftOut.score() };
    }
  }
  return { cases: customers.length, variants: out };
}
