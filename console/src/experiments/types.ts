import type { ArmResult } from '../../../src/domain/experiments/results';
import type { Estimate } from '../../../src/domain/experiments/stats';
import type { Experiment } from '../../../src/domain/experiments/types';

// The wire shapes are the server's own types (type-only imports: nothing of the server is bundled).
export type { ArmResult, Estimate, Experiment };

export interface Series {
  arms: string[];
  days: { day: string; arms: { visitors: number; orders: number; revenue: number; conversion: number | null; revenue_per_visitor: number | null }[] }[];
}

/** `3.12% (2.80–3.47%)`; a dash where there is nothing to show yet. */
export function percentWithInterval(e: Estimate): string {
  if (e.value === null) return '—';
  const p = (x: number) => `${(x * 100).toFixed(2)}%`;
  return e.low === null || e.high === null ? p(e.value) : `${p(e.value)} (${p(e.low)}–${p(e.high)})`;
}

/** A money figure with its interval, in the shop's currency. */
export function moneyWithInterval(e: Estimate, currency: string): string {
  if (e.value === null) return '—';
  const m = (x: number) => money(x, currency);
  return e.low === null || e.high === null ? m(e.value) : `${m(e.value)} (${m(e.low)}–${m(e.high)})`;
}

export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return amount.toFixed(2);
  }
}

/** `0.97` → `97%`; a dash for the first arm or when not computable. */
export const chance = (p: number | null | undefined) => (p === null || p === undefined ? '—' : `${Math.round(p * 100)}%`);
