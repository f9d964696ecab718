import { Tally, type Score } from './metrics.js';
import { DAY_MS, type Invoice } from './retail.js';

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
        let list = this.invoicesOf.get(id);
        if (!list) this.invoicesOf.set(id, (list = []));
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
    let mine = units.get(invoice.customer);
    if (!mine) units.set(invoice.customer, (mine = new Map()));
    for (const [id, item] of invoice.items) mine.set(id, (mine.get(id) ?? 0) + item.quantity);
  }
  return new Map([...units].map(([customer, mine]) => [customer, topKeys(mine, Infinity)]));
}

/** c = baskets with both, nA / nB = baskets with the input / the candidate, r30 / r90 = Σ over shared baskets of 0.5^(age_days / h). */
interface Pair {
  c: number;
  nA: number;
  nB: number;
  r30: number;
  r90: number;
}

/** The co-purchase scorings of the sweep, by key: a candidate's score given the input. */
export const CO_PURCHASE_WEIGHTINGS: readonly (readonly [string, (p: Pair) => number])[] = [
  ['count', (p) => p.c],
  ['cosine', (p) => p.c / Math.sqrt(p.nA * p.nB)],
  ...[0.1, 0.2, 0.3, 0.5].map((alpha) => [`damped_${alpha}`, (p: Pair) => p.c / p.nB ** alpha] as const),
  ['jaccard', (p) => p.c / (p.nA + p.nB - p.c)],
  ['recency_h30', (p) => p.r30],
  ['recency_h90', (p) => p.r90],
];

/** The `k` best ids of `scores` (score desc, then id asc, as topKeys), without sorting them all. */
function bestK(scores: ReadonlyMap<number, number>, k: number): number[] {
  const best: [number, number][] = [];
  const before = (a: [number, number], b: [number, number]) => a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]);
  for (const entry of scores) {
    if (best.length === k && !before(entry, best[k - 1]!)) continue;
    let i = Math.min(best.length, k - 1);
    best[i] = entry;
    for (; i > 0 && before(best[i]!, best[i - 1]!); i--) [best[i], best[i - 1]] = [best[i - 1]!, best[i]!];
  }
  return best.map(([id]) => id);
}

/**
 * Basket completion under every co-purchase weighting: each input's candidates from the invoices at or after
 * `since` (ages counted back from `reference`), the top `k` per weighting, topped up from `fallback`.
 */
export function coPurchaseSweep(
  invoices: readonly Invoice[],
  since: number,
  reference: number,
  cases: readonly { input: number; targets: ReadonlySet<number> }[],
  fallback: readonly number[],
  k: number,
): Record<string, Score> {
  const invoicesOf = new Map<number, Invoice[]>();
  for (const invoice of invoices) {
    if (invoice.at < since || invoice.at > reference) continue;
    for (const id of invoice.items.keys()) {
      let list = invoicesOf.get(id);
      if (!list) invoicesOf.set(id, (list = []));
      list.push(invoice);
    }
  }
  const listsOf = new Map<number, number[][]>();
  const tallies = CO_PURCHASE_WEIGHTINGS.map(() => new Tally());
  for (const { input, targets } of cases) {
    let lists = listsOf.get(input);
    if (!lists) {
      const holding = invoicesOf.get(input) ?? [];
      const pairs = new Map<number, Pair>();
      for (const invoice of holding) {
        const age = (reference - invoice.at) / DAY_MS;
        const w30 = 0.5 ** (age / 30);
        const w90 = 0.5 ** (age / 90);
        for (const id of invoice.items.keys()) {
          if (id === input) continue;
          let p = pairs.get(id);
          if (!p) pairs.set(id, (p = { c: 0, nA: holding.length, nB: invoicesOf.get(id)!.length, r30: 0, r90: 0 }));
          p.c++;
          p.r30 += w30;
          p.r90 += w90;
        }
      }
      const skip = new Set([input]);
      lists = CO_PURCHASE_WEIGHTINGS.map(([, weigh]) => {
        const scores = new Map<number, number>();
        for (const [id, p] of pairs) scores.set(id, weigh(p));
        return fill(bestK(scores, k), fallback, k, skip);
      });
      listsOf.set(input, lists);
    }
    lists.forEach((list, i) => tallies[i]!.add(list, targets));
  }
  return Object.fromEntries(CO_PURCHASE_WEIGHTINGS.map(([key], i) => [key, tallies[i]!.score()]));
}
