import { describe, expect, it } from 'vitest';
import { chooseOnTheFoldBefore, chooseOnTuning, type FoldResult } from '../../../bench/eval/fold-suite.js';

const ratio = (low: number, ndcg = 1) => ({
  hr: { ratio: low + 0.02, low, high: low + 0.04 },
  ndcg: { ratio: ndcg, low: ndcg, high: ndcg },
});

/** A fold whose candidates a, b and c have these HR lower ends (and NDCG ratios). */
function fold(label: string, scores: Record<string, [low: number, ndcg?: number]>): FoldResult {
  return {
    label,
    train_orders: 0,
    customers: 0,
    baskets: 0,
    for_you: [],
    recommended: [],
    candidates: Object.entries(scores).map(([key, [low, ndcg]]) => ({ key, ...ratio(low, ndcg) })),
    neighbours: [],
    ms: 0,
  };
}

describe('choosing a for_you blend on a fold', () => {
  const folds = [
    fold('one', { a: [1.1], b: [1.0], c: [0.9] }),
    fold('two', { a: [0.95], b: [1.2, 1.0], c: [1.2, 1.1] }),
    fold('three', { a: [1.3], b: [1.05], c: [0.97] }),
  ];

  it('scores each later fold with the candidate the fold before it picks, ties by NDCG', () => {
    const picks = chooseOnTheFoldBefore(folds);
    expect(picks.map((p) => [p.label, p.key, p.hr.low])).toEqual([
      ['two', 'a', 0.95], // best on one, then judged on two
      ['three', 'c', 0.97], // b and c tie on two's lower end; c ranks better
    ]);
  });

  it('picks on the tuning fold by the lowest lower end over every log', () => {
    const other = [fold('one', { a: [0.99], b: [1.05], c: [0.8] })];
    expect(chooseOnTuning([folds])).toBe('a');
    expect(chooseOnTuning([folds, other])).toBe('b');
  });
});
