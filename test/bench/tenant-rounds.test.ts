import { describe, expect, it } from 'vitest';
import { median, roundOrder, summarize, type RoundFigure } from '../../bench/lib/tenant-rounds.js';

const round = (rps: number, hotP99Ms = 1): RoundFigure => ({ rps, hotP50Ms: 0.5, hotP99Ms, coldP50Ms: 2, errors: 0 });

describe('alternating rounds of the many-shops benchmark', () => {
  it('takes the median of an odd and of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('reverses the order of the targets every other round', () => {
    expect(roundOrder(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
    expect(roundOrder(['a', 'b', 'c'], 1)).toEqual(['c', 'b', 'a']);
    expect(roundOrder(['a', 'b', 'c'], 2)).toEqual(['a', 'b', 'c']);
  });

  it('takes each ratio within its round, not of the medians', () => {
    // The ceiling halves in round 2 and the server with it: every round's ratio is 0.2, while the
    // ratio of the medians (350 / 1,500) would not be.
    const summary = summarize(
      new Map([
        ['server', [round(400, 20), round(200, 30), round(300, 10)]],
        ['ceiling', [round(2000), round(1000), round(1500)]],
      ]),
      'ceiling',
    );
    expect(summary.server!.ratio).toBe(0.2);
    expect(summary.server!.median.rps).toBe(300);
    expect(summary.server!.median.hotP99Ms).toBe(20);
    expect(summary.ceiling!.ratio).toBe(1);
  });

  it('refuses targets with different numbers of rounds, or a missing reference', () => {
    const rounds = new Map([
      ['server', [round(1), round(2)]],
      ['ceiling', [round(3)]],
    ]);
    expect(() => summarize(rounds, 'ceiling')).toThrow(/2 rounds/);
    expect(() => summarize(rounds, 'base')).toThrow(/no rounds of base/);
  });
});
