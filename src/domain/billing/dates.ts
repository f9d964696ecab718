import { localTime } from '../rules/local-time.js';

/** Billing timestamps carry no offset (as the public API sends them): `YYYY-MM-DDTHH:MM:SS` in UTC. */
export function billingTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19);
}

/** Today's date in the shop's time zone, as `YYYY-MM-DD`. */
export function shopToday(epochMs: number, timezone: string): string {
  const d = localTime(epochMs, timezone).date;
  const month = String(Math.floor(d / 100) % 100).padStart(2, '0');
  return `${Math.floor(d / 10_000)}-${month}-${String(d % 100).padStart(2, '0')}`;
}

/** Adds days to a `YYYY-MM-DD` date. */
export function addDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** Adds calendar months, keeping the day where the month has it (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

/** The next charge date after today: one order interval (day, week or month) on. */
export function nextIntervalDate(today: string, frequency: string, unit: string): string {
  const n = Math.max(1, Number.parseInt(frequency, 10) || 1);
  const u = unit.toLowerCase().replace(/s$/, '');
  if (u === 'day') return addDays(today, n);
  if (u === 'week') return addDays(today, 7 * n);
  return addMonths(today, n);
}
