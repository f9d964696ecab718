/** The answer cache's share of a node's memory budget (docs/scaling.md, "The memory budget"). */

/**
 * What a server takes before any shop or answer (code, the HTTP app, V8's own heap): about 105 MB
 * measured once the clients only some configurations use were loaded on first use (107-114 MB
 * before, on the same machine; docs/scaling.md); the upper end and some margin.
 */
const PROCESS_BASELINE_MB = 112;

/**
 * The answer cache's bound for a budget, in bytes: a 32nd of the budget, and no more than a quarter
 * of what the budget leaves above a process's baseline, from 4 to 64 MB. It was an eighth of the
 * whole budget: at 160 MB that was 20 MB, more than the shops' own minimum share, and RSS went past
 * 1.25 times the budget by about as much; at 512 MB (64 MB) it pushed a tenth of the requests of
 * many shops into loads, which cost about 8 ms of CPU where a hit saves well under 0.1 ms
 * (docs/scaling.md, "The memory budget").
 */
export function answerCacheBytes(budgetMb: number): number {
  const aboveBaseline = Math.floor((budgetMb - PROCESS_BASELINE_MB) / 4);
  return Math.max(4, Math.min(64, Math.floor(budgetMb / 32), aboveBaseline)) * 1024 * 1024;
}
