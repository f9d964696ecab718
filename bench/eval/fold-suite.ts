/**
 * The rolling-origin evaluation of one log: every list against
 * every baseline on every fold, with paired bootstrap intervals.
 */
import { type Fold, rollingFolds } from './folds.js';
import {
  BASKET_RULES,
  basketEase,
  basketLists,
  candidateForYou,
  easeFor,
  FoldContext,
  personalItemModel,
  purchasedThenTrending,
  serviceForYou,
  serviceRecommended,
  trendingForAll,
  type ForYouCandidate,
  type Lists,
} from './fold-methods.js';
import type { ForYouBlend } from '../../src/domain/models/rank.js';
import type { ContentModel } from '../../src/domain/models/content.js';
import { ITEM_KNN, itemScores } from './item-models.js';
import { neighbourCandidates, type ListCandidate } from './neighbour-candidates.js';
import { mean, pairedRatio, scoreCases, type CaseScores, type Ratio } from './ranking.js';
import type { Invoice } from './retail.js';

export interface MethodRow {
  key: string;
  label: string;
  hr: number;
  ndcg: number;
  mrr: number;
  coverage: number;
  /** Paired ratios (HR, NDCG) against each baseline key. */
  against: Record<string, { hr: Ratio; ndcg: Ratio }>;
}
export interface FoldResult {
  label: string;
  train_orders: number;
  customers: number;
  baskets: number;
  for_you: MethodRow[];
  recommended: MethodRow[];
  candidates: { key: string; hr: Ratio; ndcg: Ratio }[];
  /** The customer-neighbour candidates (TIFU-kNN, UP-CF@r, repeat/explore), scored like `candidates`. */
  neighbours: { key: string; family: string; hr: Ratio; ndcg: Ratio; overShipped: { hr: Ratio; ndcg: Ratio } }[];
  ms: number;
}

const FOR_YOU_BASELINE = 'purchased_then_trending';

/**
 * Every for_you candidate tried: own frequency × recency, its blend with the bought-together
 * neighbours, the content neighbours and popularity, and the order of purchases and the rest.
 */
export function forYouCandidates(): ForYouCandidate[] {
  const out: ForYouCandidate[] = [];
  const add = (halfLifeDays: number, counts: 'orders' | 'units', blend: ForYouBlend, popularity = 'model') =>
    out.push({
      key:
        `h${halfLifeDays === Infinity ? '∞' : halfLifeDays} ${counts} ${blend.purchasesFirst ? 'first' : 'mixed'} ` +
        `sim ${blend.similarity} content ${blend.content} pop ${blend.popularity}` +
        (popularity === 'trending' ? ' (trending)' : ''),
      halfLifeDays,
      counts,
      blend,
      popularity: popularity as 'model' | 'trending',
    });
  // The first round: no content neighbours.
  const first = (halfLifeDays: number, counts: 'orders' | 'units', purchasesFirst: boolean) => {
    for (const similarity of [0, 0.03, 0.1, 0.3])
      for (const popularity of [0, 0.1, 0.3, 1])
        add(halfLifeDays, counts, { purchasesFirst, similarity, content: 0, popularity });
  };
  for (const halfLifeDays of [30, 180, Infinity]) first(halfLifeDays, 'orders', true);
  first(180, 'units', true);
  first(180, 'orders', false);
  // The second round: the content neighbours of the purchases, and a stronger neighbour vote.
  for (const similarity of [0, 0.1, 0.3, 1])
    for (const content of similarity === 1 ? [0, 0.1, 0.3, 1] : [0.1, 0.3, 1])
      for (const popularity of [0.3, 1, 3])
        add(180, 'orders', { purchasesFirst: true, similarity, content, popularity });
  // The third round: the popularity blended in and filled with is the trending endpoint's (the baseline's list).
  for (const similarity of [0, 0.03, 0.1, 0.3, 1])
    for (const content of [0, 0.1, 0.3, 1])
      for (const popularity of [0.1, 0.3, 1, 3])
        add(180, 'orders', { purchasesFirst: true, similarity, content, popularity }, 'trending');
  return out;
}

/** The fold the blend is chosen on: the first, whose training orders and scored window end by the second's cut. */
export const TUNING_FOLD = 0;

/**
 * The candidate chosen on the tuning fold of every log: the best lowest-over-logs lower end of the
 * HR ratio's interval, ties by the mean NDCG ratio (what the later folds then test).
 */
export function chooseOnTuning(
  logs: readonly (readonly FoldResult[])[],
  among: (fold: FoldResult) => readonly { key: string; hr: Ratio; ndcg: Ratio }[] = (fold) => fold.candidates,
): string | null {
  return chooseOnFold(logs, TUNING_FOLD, among);
}

/** `chooseOnTuning`'s rule applied to fold `at` of every log. */
function chooseOnFold(
  logs: readonly (readonly FoldResult[])[],
  at: number,
  among: (fold: FoldResult) => readonly { key: string; hr: Ratio; ndcg: Ratio }[],
): string | null {
  const first = logs[0]?.[at];
  if (!first) return null;
  let best: { key: string; low: number; ndcg: number } | null = null;
  among(first).forEach((candidate, c) => {
    const tuned = logs.map((folds) => among(folds[at]!)[c]!);
    const low = Math.min(...tuned.map((t) => t.hr.low));
    const ndcg = tuned.reduce((sum, t) => sum + t.ndcg.ratio, 0) / tuned.length;
    if (!best || low > best.low || (low === best.low && ndcg > best.ndcg)) best = { key: candidate.key, low, ndcg };
  });
  return (best as { key: string } | null)?.key ?? null;
}

/**
 * A blend chosen for one shop on its own recent weeks: for each fold after the first, the candidate
 * the rule picks on the fold before it (of this log alone), and how it then scores. Where the folds
 * are four weeks apart, the fold before is exactly the four weeks before the cut, scored by a model
 * of what came before them: what a shop choosing its own weights at the cut could have done.
 */
export function chooseOnTheFoldBefore(
  folds: readonly FoldResult[],
): { label: string; key: string; hr: Ratio; ndcg: Ratio }[] {
  const out: { label: string; key: string; hr: Ratio; ndcg: Ratio }[] = [];
  for (let at = 1; at < folds.length; at++) {
    const key = chooseOnFold([folds], at - 1, (fold) => fold.candidates);
    const row = folds[at]!.candidates.find((candidate) => candidate.key === key);
    if (key !== null && row) out.push({ label: folds[at]!.label, key, hr: row.hr, ndcg: row.ndcg });
  }
  return out;
}

function rows(
  methods: { key: string; label: string; lists: Lists }[],
  targets: readonly ReadonlySet<number>[],
  catalogue: number,
  baselines: readonly string[],
): MethodRow[] {
  const scored = new Map<string, CaseScores>(methods.map((m) => [m.key, scoreCases(m.lists, targets, catalogue)]));
  return methods.map((m) => {
    const s = scored.get(m.key)!;
    const against: MethodRow['against'] = {};
    for (const b of baselines) {
      if (b === m.key) continue;
      const base = scored.get(b)!;
      against[b] = { hr: pairedRatio(s.hr, base.hr), ndcg: pairedRatio(s.ndcg, base.ndcg) };
    }
    return {
      key: m.key,
      label: m.label,
      hr: mean(s.hr),
      ndcg: mean(s.ndcg),
      mrr: mean(s.mrr),
      coverage: s.coverage,
      against,
    };
  });
}

function evaluateFold(
  fold: Fold,
  extra: { forYou: ForYouCandidate[]; neighbours: ListCandidate[]; content: ContentModel | null },
): FoldResult {
  const started = performance.now();
  const ctx = new FoldContext(fold, extra.content);
  const customerTargets = fold.customers.map((c) => c.targets);
  const customerEase = easeFor(ctx.customers);
  const forYouMethods = [
    {
      key: FOR_YOU_BASELINE,
      label: 'baseline: previous purchases (most units first), then trending',
      lists: purchasedThenTrending(ctx),
    },
    { key: 'trending', label: 'baseline: trending (service defaults)', lists: trendingForAll(ctx) },
    {
      key: 'ease_boosted',
      label: 'baseline: EASE over the history, own purchases boosted',
      lists: personalItemModel(ctx, (s) => customerEase.scores(s), 1),
    },
    {
      key: 'knn_boosted',
      label: 'baseline: item-kNN over the history, own purchases boosted',
      lists: personalItemModel(ctx, (s) => itemScores(ctx.customers, ITEM_KNN, s), 1),
    },
    { key: 'for_you', label: 'for_you (defaults as shipped: purchases kept)', lists: serviceForYou(ctx) },
    { key: 'for_you_left_out', label: 'for_you, include_purchased=no', lists: serviceForYou(ctx, 'left out') },
  ];
  const forYouRows = rows(forYouMethods, customerTargets, ctx.catalogue, [
    FOR_YOU_BASELINE,
    'trending',
    'ease_boosted',
    'knn_boosted',
  ]);
  const baseline = scoreCases(forYouMethods[0]!.lists, customerTargets, ctx.catalogue);
  const candidates = extra.forYou.map((candidate) => {
    const s = scoreCases(candidateForYou(ctx, candidate), customerTargets, ctx.catalogue);
    return { key: candidate.key, hr: pairedRatio(s.hr, baseline.hr), ndcg: pairedRatio(s.ndcg, baseline.ndcg) };
  });
  const shipped = scoreCases(forYouMethods.find((m) => m.key === 'for_you')!.lists, customerTargets, ctx.catalogue);
  const neighbours = extra.neighbours.map((candidate) => {
    const s = scoreCases(candidate.lists(ctx), customerTargets, ctx.catalogue);
    const [hr, ndcg] = [pairedRatio(s.hr, baseline.hr), pairedRatio(s.ndcg, baseline.ndcg)];
    // Against for_you as shipped, paired on the same cases: whether it would be worth shipping.
    const overShipped = { hr: pairedRatio(s.hr, shipped.hr), ndcg: pairedRatio(s.ndcg, shipped.ndcg) };
    return { key: candidate.key, family: candidate.family, hr, ndcg, overShipped };
  });

  const basketTargets = fold.baskets.map((b) => b.targets);
  const basketEaseModel = easeFor(ctx.baskets);
  const recommendedMethods = [
    ...BASKET_RULES.map((rule) => ({ key: rule.name, label: `baseline: ${rule.name}`, lists: basketLists(ctx, rule) })),
    { key: 'EASE', label: `baseline: EASE (top products only)`, lists: basketEase(ctx, basketEaseModel) },
    { key: 'recommended', label: 'recommended (model defaults as shipped)', lists: serviceRecommended(ctx) },
  ];
  const recommendedRows = rows(
    recommendedMethods,
    basketTargets,
    ctx.catalogue,
    recommendedMethods.map((m) => m.key).filter((k) => k !== 'recommended'),
  );
  return {
    label: fold.label,
    train_orders: fold.train.length,
    customers: fold.customers.length,
    baskets: fold.baskets.length,
    for_you: forYouRows,
    recommended: recommendedRows,
    candidates,
    neighbours,
    ms: Math.round(performance.now() - started),
  };
}

/** All folds of a log (orders in time order; the catalogue's content neighbours, as the service builds them). */
export function evaluateFolds(orders: readonly Invoice[], content: ContentModel | null): FoldResult[] {
  const candidates = forYouCandidates();
  const neighbours = neighbourCandidates();
  return rollingFolds(orders).map((fold) => evaluateFold(fold, { forYou: candidates, neighbours, content }));
}
