/** The two parameter sweeps of `npm run eval`: co-purchase weightings (offline) and trending settings (through the service). */
import { CO_PURCHASE_WEIGHTINGS } from './baselines.js';
import { K, type Score } from './metrics.js';
import { getList, patchSettings, type Service } from './service.js';

/** One trending configuration and its score over the validation customers (null when the service refused it). */
export interface TrendingResult {
  window_days: number;
  half_life_days: number;
  score: Score | null;
  note?: string;
}

/** Window 30 with several half-lives (365 is the largest a shop may set), then windows 14 and 60 at half-life 7. */
export const TRENDING_CONFIGS: readonly { window: number; halfLife: number }[] = [
  ...[3, 7, 14, 30, 365].map((halfLife) => ({ window: 30, halfLife })),
  { window: 14, halfLife: 7 },
  { window: 60, halfLife: 7 },
];
const TRENDING_PATH = '/products/trending_products?limit=10&filter_oos=no&bust_cache=yes';

/**
 * Sets each configuration on the shop, fetches trending (cache busted) and scores it with `score`;
 * restores `{}` afterwards and reports whether trending is then back to `defaultIds`.
 */
export async function trendingSweep(
  service: Service, score: (ids: readonly number[]) => Score, defaultIds: readonly number[] | null,
): Promise<{ results: TrendingResult[]; restored: boolean | null }> {
  const results: TrendingResult[] = [];
  try {
    for (const { window, halfLife } of TRENDING_CONFIGS) {
      const base = { window_days: window, half_life_days: halfLife };
      try {
        await patchSettings(service, { trending_window_days: window, trending_half_life_days: halfLife });
      } catch (error) {
        results.push({ ...base, score: null, note: `PATCH refused: ${refusal(error)}` });
        continue;
      }
      const answer = await getList(service, TRENDING_PATH);
      results.push({ ...base, score: answer.ids && score(answer.ids), ...(answer.note ? { note: answer.note } : {}) });
    }
  } finally {
    await patchSettings(service, {});
  }
  const after = await getList(service, TRENDING_PATH);
  const restored = defaultIds === null || after.ids === null ? null : after.ids.join() === defaultIds.join();
  return { results, restored };
}

/** The status and error message of a refused admin request (service.admin throws "METHOD path: status body"). */
function refusal(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const match = /: (\d{3}) (\{.*)$/s.exec(message);
  try {
    if (match) return `${match[1]} ${(JSON.parse(match[2]!) as { error?: string }).error ?? ''}`;
  } catch { /* not JSON */ }
  return message.replace(/\s+/g, ' ').slice(0, 200);
}

const fmt = (s: Score | null | undefined, part: 'hit_rate' | 'recall') => (s ? s[part].toFixed(4) : 'n/a');

/** The co-purchase sweep as one table: a row per weighting, hit and recall for the 90-day window and for all training. */
export function printCoPurchaseSweep(byWindow: Record<'90d' | 'all', Record<string, Score>>, n: number, fallback: string): void {
  console.log(`\n-- co-purchase weighting sweep: basket completion, same ${n} baskets and inputs; ${fallback}`);
  console.log(`${'weighting'.padEnd(16)} ${`90d hit@${K}`.padStart(11)} ${`90d rec@${K}`.padStart(11)} ${`all hit@${K}`.padStart(11)} ${`all rec@${K}`.padStart(11)}`);
  for (const [key] of CO_PURCHASE_WEIGHTINGS) {
    const [w90, all] = [byWindow['90d'][key], byWindow.all[key]];
    console.log(`${key.padEnd(16)} ${fmt(w90, 'hit_rate').padStart(11)} ${fmt(w90, 'recall').padStart(11)} ${fmt(all, 'hit_rate').padStart(11)} ${fmt(all, 'recall').padStart(11)}`);
  }
  console.log('count = c; cosine = c/√(n(a)n(b)); damped_α = c/n(b)^α; jaccard = c/(n(a)+n(b)−c); recency_hH = Σ shared baskets 0.5^(age_days/H)');
}

/** The trending sweep as one table: a row per (window, half-life). */
export function printTrendingSweep(results: readonly TrendingResult[], n: number, restored: boolean | null): void {
  console.log(`\n-- trending half-life sweep: service trending_products (bust_cache=yes) per shop setting, validation customers (n=${n})`);
  console.log(`${'window d'.padStart(8)} ${'half-life d'.padStart(11)} ${`hit@${K}`.padStart(8)} ${`recall@${K}`.padStart(10)}`);
  for (const r of results) {
    console.log(`${String(r.window_days).padStart(8)} ${String(r.half_life_days).padStart(11)} ${fmt(r.score, 'hit_rate').padStart(8)} ${fmt(r.score, 'recall').padStart(10)}${r.note ? `  (${r.note})` : ''}`);
  }
  console.log(`settings restored to {}: trending ${restored === null ? 'not compared' : restored ? 'matches the default answer again' : 'DIFFERS from the default answer'}`);
}
