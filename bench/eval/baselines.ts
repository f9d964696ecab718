import type { Invoice } from './retail.js';
import { getOrCreate } from '../../src/domain/maps.js';

/** Product ids by units sold in invoices at or after `since`, most first (ties by id), at most `k`. */
export function popularity(invoices: readonly Invoice[], k: number, since = -Infinity): number[] {
  const units = new Map<number, number>();
  for (const invoice of invoices) {
    if (invoice.at < since) continue;
    for (const [id, item] of invoice.items) units.set(id, (units.get(id) ?? 0) + item.quantity);
  }
  return topKeys(units, k);
}

function topKeys(counts: ReadonlyMap<number, number>, k: number, skip: ReadonlySet<number> = new Set()): number[] {
  return [...counts]
    .filter(([id]) => !skip.has(id))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, k)
    .map(([id]) => id);
}

/** Appends `fallback` ids not already present (nor in `skip`) until the list holds `k`. */
export function fill(list: number[], fallback: readonly number[], k: number, skip: ReadonlySet<number> = new Set()): number[] {
  const out = [...list];
  for (const id of fallback) {
    if (out.length >= k) break;
    if (!out.includes(id) && !skip.has(id)) out.push(id);
  }
  return out;
}

/** Co-occurrence: the products found in the most invoices (at or after `since`) together with a given product. */
export class CoOccurrence {
  private readonly invoicesOf = new Map<number, Invoice[]>();

  constructor(invoices: readonly Invoice[], since = -Infinity) {
    for (const invoice of invoices) {
      if (invoice.at < since) continue;
      for (const id of invoice.items.keys()) {
        const list = getOrCreate(this.invoicesOf, id, () => []);
        list.push(invoice);
      }
    }
  }

  /** The `k` products most often co-purchased with `input` (raw counts, or counts / √(invoices of both)), topped up from `fallback`. */
  top(input: number, k: number, fallback: readonly number[], weighting: 'count' | 'cosine' = 'count'): number[] {
    const holding = this.invoicesOf.get(input) ?? [];
    const counts = new Map<number, number>();
    for (const invoice of holding) {
      for (const id of invoice.items.keys()) if (id !== input) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    if (weighting === 'cosine') {
      for (const [id, count] of counts) counts.set(id, count / Math.sqrt(holding.length * (this.invoicesOf.get(id)?.length ?? 1)));
    }
    const skip = new Set([input]);
    return fill(topKeys(counts, k, skip), fallback, k, skip);
  }
}

/** Each customer's training products by units bought (most first), for "purchased then popular". */
export function purchasesByCustomer(invoices: readonly Invoice[]): Map<number, number[]> {
  const units = new Map<number, Map<number, number>>();
  for (const invoice of invoices) {
    if (invoice.customer === null) continue;
    const mine = getOrCreate(units, invoice.customer, () => new Map());
    for (const [id, item] of invoice.items) mine.set(id, (mine.get(id) ?? 0) + item.quantity);
  }
  return new Map([...units].map(([customer, mine]) => [customer, topKeys(mine, Infinity)]));
}
