export const K = 10;

/** Hit rate and recall at K over a set of cases (customers or invoices), with their standard errors. */
export interface Score {
  hit_rate: number;
  hit_se: number;
  recall: number;
  recall_se: number;
  n: number;
}

/** Accumulates hit@K and recall@K; recall's denominator is min(|targets|, K). */
export class Tally {
  private hits = 0;
  private recallSum = 0;
  private recallSquares = 0;
  private n = 0;

  /** Scores one recommended list against the products that case actually bought. */
  add(list: readonly number[], targets: ReadonlySet<number>): void {
    if (targets.size === 0) return;
    let found = 0;
    for (const id of new Set(list.slice(0, K))) if (targets.has(id)) found++;
    this.n++;
    if (found > 0) this.hits++;
    const recall = found / Math.min(targets.size, K);
    this.recallSum += recall;
    this.recallSquares += recall * recall;
  }

  /** The means so far and their standard errors (√(variance / n)), rounded to four decimals. */
  score(): Score {
    const round = (x: number) => Math.round(x * 10_000) / 10_000;
    if (this.n === 0) return { hit_rate: 0, hit_se: 0, recall: 0, recall_se: 0, n: 0 };
    const hit = this.hits / this.n;
    const recall = this.recallSum / this.n;
    const recallVariance = Math.max(0, this.recallSquares / this.n - recall * recall);
    return {
      hit_rate: round(hit),
      hit_se: round(Math.sqrt((hit * (1 - hit)) / this.n)),
      recall: round(recall),
      recall_se: round(Math.sqrt(recallVariance / this.n)),
      n: this.n,
    };
  }
}

/** Scores one list shared by every case. */
export function scoreShared(list: readonly number[], cases: readonly ReadonlySet<number>[]): Score {
  const tally = new Tally();
  for (const targets of cases) tally.add(list, targets);
  return tally.score();
}

/** A deterministic sample of at most `n` items (seeded Fisher–Yates), in the input's order. */
export function sample<T>(items: readonly T[], n: number, seed: number): T[] {
  if (items.length <= n) return [...items];
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const index = items.map((_, i) => i);
  for (let i = index.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [index[i], index[j]] = [index[j]!, index[i]!];
  }
  return index
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => items[i]!);
}
