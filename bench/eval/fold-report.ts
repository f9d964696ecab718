/** Markdown tables of the rolling-origin folds (docs/evaluation.md is written from them). */
import { TUNING_FOLD, type FoldResult, type MethodRow } from './fold-suite.js';
import type { Ratio } from './ranking.js';

const f4 = (x: number) => x.toFixed(4);
const interval = (r: Ratio | undefined) =>
  r ? `${r.ratio.toFixed(3)} [${r.low.toFixed(3)}, ${r.high.toFixed(3)}]` : '—';

function table(methods: MethodRow[], baselines: readonly string[], print: (line: string) => void): void {
  print(
    '| list | HR@10 | NDCG@10 | MRR@10 | cov@10 | ' +
      `${baselines.map((b) => `HR ÷ ${b}`).join(' | ')} | NDCG ÷ ${baselines[0]} |`,
  );
  print(`|---|---|---|---|---|${baselines.map(() => '---').join('|')}|---|`);
  for (const m of methods) {
    const ratios = baselines.map((b) => interval(m.against[b]?.hr));
    print(
      `| ${m.label} | ${f4(m.hr)} | ${f4(m.ndcg)} | ${f4(m.mrr)} | ${f4(m.coverage)} ` +
        `| ${ratios.join(' | ')} | ${interval(m.against[baselines[0]!]?.ndcg)} |`,
    );
  }
}

/** Prints every fold of one log. */
export function printFolds(
  name: string,
  folds: readonly FoldResult[],
  print: (line: string) => void = console.log,
): void {
  for (const fold of folds) {
    print(
      `\n#### ${name}, fold ${fold.label} (${fold.train_orders} training orders; ` +
        `${fold.customers} customers, ${fold.baskets} baskets; ${fold.ms} ms)\n`,
    );
    print('for_you (returning customers; ratios are paired bootstrap 95% intervals):\n');
    table(fold.for_you, ['purchased_then_trending', 'ease_boosted', 'knn_boosted', 'trending'], print);
    print('\nrecommended (basket completion):\n');
    const baselines = fold.recommended.map((m) => m.key).filter((k) => k !== 'recommended');
    table(fold.recommended, baselines, print);
  }
}

/** The for_you candidates: HR and NDCG over "purchased, then trending" on each fold. */
export function printCandidates(
  name: string,
  folds: readonly FoldResult[],
  print: (line: string) => void = console.log,
  among: (fold: FoldResult) => readonly { key: string; hr: Ratio; ndcg: Ratio }[] = (fold) => fold.candidates,
  what = 'for_you candidates',
): void {
  print(`\n#### ${name}: ${what}, HR@10 and NDCG@10 ÷ "purchased, then trending" per fold\n`);
  const label = (f: FoldResult, i: number) => `${f.label}${i === TUNING_FOLD ? ' (tuning)' : ''}`;
  print(
    `| candidate | ${folds.map((f, i) => `HR ${label(f, i)}`).join(' | ')} ` +
      `| ${folds.map((f, i) => `NDCG ${label(f, i)}`).join(' | ')} |`,
  );
  print(`|---|${folds.map(() => '---').join('|')}|${folds.map(() => '---').join('|')}|`);
  for (let c = 0; c < among(folds[0]!).length; c++) {
    const key = among(folds[0]!)[c]!.key;
    print(
      `| ${key} | ${folds.map((f) => interval(among(f)[c]!.hr)).join(' | ')} ` +
        `| ${folds.map((f) => interval(among(f)[c]!.ndcg)).join(' | ')} |`,
    );
  }
}
