import { describe, expect, it } from 'vitest';
import { chooseArm, visitorKey } from '../../../src/domain/experiments/assign.js';
import { armResults, type ArmDay } from '../../../src/domain/experiments/results.js';
import {
  mean,
  probabilityBeatsMean,
  probabilityBeatsProportion,
  proportion,
  ratePerVisitor,
} from '../../../src/domain/experiments/stats.js';

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('experiment statistics', () => {
  it('gives the Wilson interval of published examples, and nothing without visitors', () => {
    const none = proportion(0, 10);
    expect(none.value).toBe(0);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.2775, 4);
    const half = proportion(5, 10);
    expect(half.low).toBeCloseTo(0.2366, 4);
    expect(half.high).toBeCloseTo(0.7634, 4);
    expect(proportion(0, 0)).toEqual({ value: null, low: null, high: null });
    expect(proportion(12, 10)).toEqual({ value: 1.2, low: null, high: null });
  });

  it('gives the exact Poisson interval for events per visitor (several per visitor allowed)', () => {
    expect(ratePerVisitor(0, 1).high).toBeCloseTo(3.6889, 3);
    const ten = ratePerVisitor(10, 1);
    expect(ten.low).toBeCloseTo(4.7954, 3);
    expect(ten.high).toBeCloseTo(18.3904, 3);
    expect(ratePerVisitor(30, 10).value).toBe(3);
  });

  it("leaves a mean's interval out until two visitors have a value", () => {
    expect(mean(100, 0, 0, 0)).toEqual({ value: 0, low: null, high: null });
    expect(mean(100, 50, 2500, 1)).toEqual({ value: 0.5, low: null, high: null });
    const m = mean(4, 8, 32, 2); // values 4, 4, 0, 0
    expect(m.value).toBe(2);
    expect(m.high! - m.value!).toBeCloseTo(1.96 * Math.sqrt((32 - 4 * 4) / 3 / 4), 2);
  });

  it('puts p_beats_first at one half for equal arms, near 1 for a clearly better one, and in [0, 1]', () => {
    expect(probabilityBeatsProportion({ k: 30, n: 1000 }, { k: 30, n: 1000 })).toBeCloseTo(0.5, 2);
    expect(probabilityBeatsProportion({ k: 30, n: 1000 }, { k: 80, n: 1000 })).toBeGreaterThan(0.999);
    expect(probabilityBeatsProportion({ k: 80, n: 1000 }, { k: 30, n: 1000 })).toBeLessThan(0.001);
    expect(probabilityBeatsProportion({ k: 0, n: 0 }, { k: 1, n: 10 })).toBeNull();
    expect(probabilityBeatsMean({ n: 100, sum: 100, sumSq: 200 }, { n: 100, sum: 100, sumSq: 200 })).toBeCloseTo(
      0.5,
      6,
    );
    expect(probabilityBeatsMean({ n: 1, sum: 0, sumSq: 0 }, { n: 100, sum: 100, sumSq: 200 })).toBeNull();
  });

  it('splits 10,000 visitors within ±2% of the weights', () => {
    const next = random(3);
    const arms = [
      { name: 'A', ruleset_id: 1, weight: 3 },
      { name: 'B', ruleset_id: 2, weight: 1 },
    ];
    let a = 0;
    for (let i = 0; i < 10_000; i++) if (chooseArm({ id: 9, arms }, visitorKey(`v-${next()}`, null)) === 0) a++;
    expect(Math.abs(a / 10_000 - 0.75)).toBeLessThanOrEqual(0.02);
    expect(chooseArm({ id: 9, arms }, null)).toBe(0);
  });

  it('covers the true conversion and revenue per visitor in at least 90 of 100 seeded runs of 10,000 visitors', () => {
    const truth = [
      { p: 0.03, meanOrder: 40 },
      { p: 0.036, meanOrder: 40 },
    ];
    const covered = { conversion: [0, 0], revenue: [0, 0] };
    const arms = [
      { name: 'A', ruleset_id: 1, weight: 1 },
      { name: 'B', ruleset_id: 2, weight: 1 },
    ];
    for (let run = 0; run < 100; run++) {
      const next = random(500 + run);
      const days: ArmDay[] = arms.map((_, arm) => ({
        arm,
        day: 20261123,
        visitors: 0,
        impressions: 0,
        clicks: 0,
        add_to_carts: 0,
        orders: 0,
        revenue: 0,
        revenue_sq: 0,
      }));
      for (let v = 0; v < 10_000; v++) {
        const arm = chooseArm({ id: run + 1, arms }, visitorKey(null, v + 1));
        const day = days[arm]!;
        day.visitors++;
        if (next() < truth[arm]!.p) {
          // Order values spread like real baskets: exponential around the mean, in cents.
          const value = Math.max(1, Math.round(-Math.log(1 - next()) * truth[arm]!.meanOrder * 100)) / 100;
          day.orders++;
          day.revenue += Math.round(value * 10_000);
          day.revenue_sq += value * value;
        }
      }
      armResults({ arms }, days).forEach((result, arm) => {
        const { p, meanOrder } = truth[arm]!;
        if (result.conversion.low! <= p && p <= result.conversion.high!) covered.conversion[arm]!++;
        if (result.revenue_per_visitor.low! <= p * meanOrder && p * meanOrder <= result.revenue_per_visitor.high!)
          covered.revenue[arm]!++;
      });
    }
    for (const count of [...covered.conversion, ...covered.revenue]) expect(count).toBeGreaterThanOrEqual(90);
  });
});
