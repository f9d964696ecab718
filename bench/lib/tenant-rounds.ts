/**
 * Alternating rounds for `npm run bench:tenants` (TENANTS_ROUNDS): the same traffic sent in turn to
 * each target (this build, an earlier build, the bare server), round after round, each round with
 * its own draws. On a shared two-core machine one run after another moved the bare server's figure
 * from 8,500 to 13,800 requests a second within minutes, and the server's with it; targets measured
 * side by side in every round see the same moments, so their ratio per round holds where the
 * absolute figures do not. The order is reversed every other round, so no target always follows
 * the same one.
 */
import { runTenantLoad, type TenantLoadResult } from './tenant-load.js';
import type { TenantShop } from './tenants-data.js';

export interface RoundTarget {
  name: string;
  url: string;
  /** Called every second of the target's rounds (RSS sampling). */
  onSecond?: () => void;
}

/** The traffic of every round: what `runTenantLoad` takes, less what the rounds set themselves. */
export type RoundTraffic = Omit<Parameters<typeof runTenantLoad>[2], 'seconds' | 'warmupSeconds' | 'seed' | 'onSecond'>;

/** One target's figures in one round. */
export interface RoundFigure {
  rps: number;
  hotP50Ms: number;
  hotP99Ms: number;
  coldP50Ms: number;
  errors: number;
}

/**
 * A target over the rounds: each round's figures, their medians, and the median ratio of its req/s
 * to the reference's in the same round.
 */
export interface RoundSummary {
  rounds: RoundFigure[];
  median: RoundFigure;
  /** Median over the rounds of this target's req/s ÷ the reference's in the same round. */
  ratio: number;
}

const figure = (r: TenantLoadResult): RoundFigure => ({
  rps: r.rps,
  hotP50Ms: r.tiers.hot.p50Ms,
  hotP99Ms: r.tiers.hot.p99Ms,
  coldP50Ms: r.tiers.cold.p50Ms,
  errors: r.errors,
});

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The order of the targets in round `round` (from 0): as given, then reversed, and so on. */
export function roundOrder<T>(targets: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...targets] : [...targets].reverse();
}

/** Each target's rounds summed up; ratios against `reference` (one of the targets' names). */
export function summarize(byTarget: ReadonlyMap<string, readonly RoundFigure[]>, reference: string) {
  const base = byTarget.get(reference);
  if (!base) throw new Error(`no rounds of ${reference}`);
  const out: Record<string, RoundSummary> = {};
  for (const [name, rounds] of byTarget) {
    if (rounds.length !== base.length)
      throw new Error(`${name}: ${rounds.length} rounds, ${reference}: ${base.length}`);
    const of = (key: keyof RoundFigure) => Number(median(rounds.map((r) => r[key])).toFixed(2));
    out[name] = {
      rounds: [...rounds],
      median: {
        rps: of('rps'),
        hotP50Ms: of('hotP50Ms'),
        hotP99Ms: of('hotP99Ms'),
        coldP50Ms: of('coldP50Ms'),
        errors: of('errors'),
      },
      ratio: Number(median(rounds.map((r, i) => r.rps / Math.max(1, base[i]!.rps))).toFixed(3)),
    };
  }
  return out;
}

/** Sends `rounds` rounds of `seconds` to every target in turn; each target's figures, by name. */
export async function alternate(
  targets: readonly RoundTarget[],
  shops: readonly TenantShop[],
  traffic: RoundTraffic,
  rounds: number,
  seconds: number,
): Promise<Map<string, RoundFigure[]>> {
  const out = new Map<string, RoundFigure[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++)
    for (const target of roundOrder(targets, round)) {
      // The same draws for every target of a round (its seed), other draws in the next round.
      const result = await runTenantLoad(target.url, shops, {
        ...traffic,
        seconds,
        warmupSeconds: 0,
        seed: round + 1,
        ...(target.onSecond ? { onSecond: target.onSecond } : {}),
      });
      out.get(target.name)!.push(figure(result));
    }
  return out;
}
