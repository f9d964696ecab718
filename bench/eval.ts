/**
 * `npm run eval [-- <data dir>]`: recommendation quality on public purchase logs (docs/evaluation.md).
 * Rolling-origin folds: each trained on the orders before its cut and scored on the weeks after it,
 * every list of the model (its own functions, as the service runs them) against the strong simple
 * baselines, with paired bootstrap intervals. The data directory defaults to `../shared/data` beside
 * the repository. Prints markdown tables; the last line is one JSON object with every figure.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { logContent } from './eval/fold-methods.js';
import { printCandidates, printFolds } from './eval/fold-report.js';
import { chooseOnTheFoldBefore, chooseOnTuning, evaluateFolds, type FoldResult } from './eval/fold-suite.js';
import { loadMsStore } from './eval/ms-store.js';
import { type Ratio, setResamples } from './eval/ranking.js';
import { loadRetail, type Invoice, type RetailProduct } from './eval/retail.js';
import { ROOT } from './lib/processes.js';
import { FOR_YOU_BLEND } from '../src/domain/models/rank.js';

/**
 * Options while iterating: `--log retail|msstore` scores one log, `--resamples N` draws fewer
 * bootstrap resamples (the reported figures: both logs, 1,000). The first other argument is the data directory.
 */
function options(argv: readonly string[]): { dir: string | undefined; log: string | null; resamples: number } {
  const out = { dir: undefined as string | undefined, log: null as string | null, resamples: 1000 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--log') out.log = argv[++i] ?? null;
    else if (argv[i] === '--resamples') out.resamples = Number(argv[++i]);
    else out.dir ??= argv[i];
  }
  return out;
}
const opts = options(process.argv.slice(2));

function dataDir(): string | null {
  const given = opts.dir;
  if (given) return existsSync(given) ? resolve(given) : null;
  const beside = join(ROOT, '..', 'shared', 'data');
  return existsSync(beside) ? beside : null;
}

/** Each log's orders in time order (the whole visible period: the folds cut it). */
interface Log {
  name: string;
  handle: string;
  orders: Invoice[];
  products: RetailProduct[];
}

async function logs(dir: string): Promise<Log[]> {
  const out: Log[] = [];
  const wanted = (handle: string) => opts.log === null || opts.log === handle;
  const retailFile = join(dir, 'online-retail', 'online_retail_train.csv.gz');
  if (wanted('retail') && existsSync(retailFile)) {
    const r = await loadRetail(retailFile, 0);
    out.push({ name: 'Online Retail', handle: 'retail', orders: [...r.train, ...r.valid], products: r.products });
  }
  const msDir = join(dir, 'ms-store-sar');
  if (wanted('msstore') && existsSync(join(msDir, 'ms_usage_train.csv'))) {
    const m = loadMsStore(msDir);
    out.push({ name: 'Microsoft store', handle: 'msstore', orders: [...m.train, ...m.valid], products: m.products });
  }
  return out;
}

async function main(dir: string) {
  const started = performance.now();
  setResamples(opts.resamples);
  const results: Record<string, FoldResult[]> = {};
  for (const log of await logs(dir)) {
    console.log(`\n### ${log.name}: ${log.orders.length} orders`);
    const folds = evaluateFolds(log.orders, logContent(log.products));
    printFolds(log.name, folds);
    printCandidates(log.name, folds);
    printCandidates(log.name, folds, console.log, (f) => f.neighbours, 'customer-neighbour candidates');
    results[log.handle] = folds;
  }
  const chosen = chooseOnTuning(Object.values(results));
  console.log(`\nfor_you blend chosen on the tuning fold (the first) of the logs scored: ${chosen}`);
  console.log(`shipped: ${JSON.stringify(FOR_YOU_BLEND)}`);
  const logsScored = Object.values(results);
  for (const family of ['TIFU-kNN', 'UP-CF@r', 'repeat/explore']) {
    const among = (f: FoldResult) => f.neighbours.filter((n) => n.family === family);
    console.log(`${family} chosen on the tuning fold: ${chooseOnTuning(logsScored, among)}`);
  }
  const ratio = (r: Ratio) => `${r.ratio.toFixed(3)} [${r.low.toFixed(3)}, ${r.high.toFixed(3)}]`;
  for (const [handle, folds] of Object.entries(results))
    for (const pick of chooseOnTheFoldBefore(folds))
      console.log(
        `  ${handle} ${pick.label}, chosen on the fold before: ${pick.key}: ` +
          `HR ${ratio(pick.hr)}, NDCG ${ratio(pick.ndcg)}`,
      );
  const neighbour = chooseOnTuning(logsScored, (f) => f.neighbours);
  console.log(`any neighbour candidate chosen on the tuning fold: ${neighbour}`);
  for (const [handle, folds] of Object.entries(results))
    for (const fold of folds) {
      const row = fold.neighbours.find((n) => n.key === neighbour);
      if (row)
        console.log(
          `  ÷ for_you as shipped, ${handle} ${fold.label}: HR ` +
            `${ratio(row.overShipped.hr)}, NDCG ${ratio(row.overShipped.ndcg)}`,
        );
    }
  console.log(`\ntotal ${Math.round(performance.now() - started)} ms`);
  console.log(JSON.stringify({ k: 10, data_dir: dir, chosen, logs: results }));
}

const dir = dataDir();
if (!dir) {
  console.log(
    'No data directory: pass one (npm run eval -- <dir>), laid out as docs/evaluation.md ' +
      `describes${opts.dir ? `; ${opts.dir} does not exist` : ''}.`,
  );
  process.exit(opts.dir ? 1 : 0);
}
main(dir).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
