/**
 * `npm run eval [-- <data dir>]`: recommendation quality on public purchase logs (docs/evaluation.md).
 * Rolling-origin folds: each trained on the orders before its cut and scored on the weeks after it,
 * every list of the model (its own functions, as the service runs them) against the strong simple
 * baselines, with paired bootstrap intervals. The data directory defaults to `../shared/data` beside
 * the repository. Prints markdown tables; the last line is one JSON object with every figure.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { printCandidates, printFolds } from './eval/fold-report.js';
import { evaluateFolds } from './eval/fold-suite.js';
import { loadMsStore } from './eval/ms-store.js';
import { loadRetail, type Invoice } from './eval/retail.js';
import { ROOT } from './lib/processes.js';

function dataDir(): string | null {
  const given = process.argv[2];
  if (given) return existsSync(given) ? resolve(given) : null;
  const beside = join(ROOT, '..', 'shared', 'data');
  return existsSync(beside) ? beside : null;
}

/** Each log's orders in time order (the whole visible period: the folds cut it). */
async function logs(dir: string): Promise<{ name: string; handle: string; orders: Invoice[] }[]> {
  const out: { name: string; handle: string; orders: Invoice[] }[] = [];
  const retailFile = join(dir, 'online-retail', 'online_retail_train.csv.gz');
  if (existsSync(retailFile)) {
    const r = await loadRetail(retailFile, 0);
    out.push({ name: 'Online Retail', handle: 'retail', orders: [...r.train, ...r.valid] });
  }
  const msDir = join(dir, 'ms-store-sar');
  if (existsSync(join(msDir, 'ms_usage_train.csv'))) {
    const m = loadMsStore(msDir);
    out.push({ name: 'Microsoft store', handle: 'msstore', orders: [...m.train, ...m.valid] });
  }
  return out;
}

async function main(dir: string) {
  const started = performance.now();
  const results: Record<string, unknown> = {};
  for (const log of await logs(dir)) {
    console.log(`\n### ${log.name}: ${log.orders.length} orders`);
    const folds = evaluateFolds(log.orders);
    printFolds(log.name, folds);
    printCandidates(log.name, folds);
    results[log.handle] = folds;
  }
  console.log(`\ntotal ${Math.round(performance.now() - started)} ms`);
  console.log(JSON.stringify({ k: 10, data_dir: dir, logs: results }));
}

const dir = dataDir();
if (!dir) {
  console.log(
    `No data directory: pass one (npm run eval -- <dir>), laid out as docs/evaluation.md describes${process.argv[2] ? `; ${process.argv[2]} does not exist` : ''}.`,
  );
  process.exit(process.argv[2] ? 1 : 0);
}
main(dir).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
