import type { ArmResult } from '../../../src/domain/experiments/results';
import type { Estimate } from '../../../src/domain/experiments/stats';
import type { Experiment } from '../../../src/domain/experiments/types';

// The wire shapes are the server's own types (type-only imports: nothing of the server is bundled).
export type { ArmResult, Estimate, Experiment };

export interface Series {
  arms: string[];
  days: {
    day: string;
    arms: {
      visitors: number;
      orders: number;
      revenue: number;
      conversion: number | null;
      revenue_per_visitor: number | null;
    }[];
  }[];
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
export const chance = (p: number | null | undefined) =>
  p === null || p === undefined ? '—' : `${Math.round(p * 100)}%`;

/**
 * When figures can say anything (docs/attribution.md, "What the console shows"): an arm's
 * intervals once it has served at least MIN_VISITORS visitors; its chance to beat the first arm
 * once both have, and the two have at least MIN_ORDERS orders between them. Before that the
 * console shows the counts alone: with 0 orders a "53% chance to beat" is noise.
 */
export const MIN_VISITORS = 100;
export const MIN_ORDERS = 10;

export const enoughVisitors = (arm: ArmResult) => arm.visitors >= MIN_VISITORS;
export const enoughToCompare = (arm: ArmResult, first: ArmResult) =>
  enoughVisitors(arm) && enoughVisitors(first) && arm.orders + first.orders >= MIN_ORDERS;

/** A rate, with its interval only when there is enough data for one. */
export function percentFor(arm: ArmResult, e: Estimate): string {
  return enoughVisitors(arm) ? percentWithInterval(e) : percentWithInterval({ ...e, low: null, high: null });
}

export function moneyFor(arm: ArmResult, e: Estimate, currency: string): string {
  return enoughVisitors(arm)
    ? moneyWithInterval(e, currency)
    : moneyWithInterval({ ...e, low: null, high: null }, currency);
}
