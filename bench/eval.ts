/**
 * `npm run eval [-- <data dir>]`: recommendation quality on public purchase logs (docs/evaluation.md), each
 * list of the built server's public API next to its baseline on held-out orders, with standard errors.
 * The data directory defaults to `../shared/data` beside the repository. The last line printed is one
 * JSON object with every figure.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Score } from './eval/metrics.js';
import { loadMsStore } from './eval/ms-store.js';
import { DAY_MS, isoSeconds, loadRetail, type Invoice } from './eval/retail.js';
import { requestStats, startService, type Service } from './eval/service.js';
import { evaluate, type Dataset } from './eval/suite.js';
import { ROOT } from './lib/processes.js';

const VALID_DAYS = 28;
const fmt = (s: Score | null | undefined) =>
  s ? `${s.hit_rate.toFixed(4)} ± ${s.hit_se.toFixed(4)}   ${s.recall.toFixed(4)} ± ${s.recall_se.toFixed(4)} ${String(s.n).padStart(6)}` : 'n/a';

function dataDir(): string | null {
  const given = process.argv[2];
  if (given) return existsSync(given) ? resolve(given) : null;
  const beside = join(ROOT, '..', 'shared', 'data');
  return existsSync(beside) ? beside : null;
}

/** Training orders split at `cutoff`: before it fits, from it checks. */
function carveByTime(train: readonly Invoice[], cutoff: number, label: string) {
  return { fit: train.filter((o) => o.at < cutoff), check: train.filter((o) => o.at >= cutoff), label };
}

/** The time from which the last `share` of the orders' lines lie. */
function lineShareCutoff(orders: readonly Invoice[], share: number): number {
  const times = orders.flatMap((o) => Array.from({ length: o.items.size }, () => o.at)).sort((a, b) => a - b);
  return times[Math.floor(times.length * (1 - share))]!;
}

async function datasets(dir: string): Promise<{ data: Dataset; split: string }[]> {
  const out: { data: Dataset; split: string }[] = [];
  const retailFile = join(dir, 'online-retail', 'online_retail_train.csv.gz');
  if (existsSync(retailFile)) {
    const r = await loadRetail(retailFile, VALID_DAYS);
    out.push({
      data: {
        name: 'Online Retail',
        handle: 'retail',
        products: r.products,
        train: r.train,
        valid: r.valid,
        carve: (train) => carveByTime(train, train[train.length - 1]!.at - VALID_DAYS * DAY_MS, `training's last ${VALID_DAYS} days`),
      },
      split: `${r.rows} rows; training ${r.train.length} orders to ${isoSeconds(r.train[r.train.length - 1]!.at)}; validation ${r.valid.length} orders, ${isoSeconds(r.cutoff)} … ${isoSeconds(r.lastAt)} (last ${VALID_DAYS} days)`,
    });
  }
  const msDir = join(dir, 'ms-store-sar');
  if (existsSync(join(msDir, 'ms_usage_train.csv'))) {
    const m = loadMsStore(msDir);
    out.push({
      data: {
        name: 'Microsoft store',
        handle: 'msstore',
        products: m.products,
        train: m.train,
        valid: m.valid,
        carve: (train) => carveByTime(train, lineShareCutoff(train, 0.2), "training's last 20% of rows"),
      },
      split: `${m.rows} rows; training ${m.train.length} baskets to ${isoSeconds(m.train[m.train.length - 1]!.at)}; validation ${m.valid.length} baskets, ${isoSeconds(m.cutoff)} … ${isoSeconds(m.lastAt)} (last 20% of rows)`,
    });
  }
  return out;
}

async function main(dir: string) {
  const started = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'rebound-eval-'));
  let service: Service | null = null;
  const results: Record<string, unknown> = {};
  try {
    service = await startService(work);
    for (const { data, split } of await datasets(dir)) {
      console.log(`\n== ${data.name}: ${split}`);
      const r = await evaluate(service, data);
      console.log(`import ${JSON.stringify(r.import_ms)} ms; model ${JSON.stringify(r.model)} (waited ${r.model_wait_ms} ms)`);
      console.log(`${'method'.padEnd(66)} ${'hit@10 ± se'.padStart(17)}   ${'recall@10 ± se'.padStart(17)} ${'n'.padStart(6)}`);
      for (const row of r.rows) console.log(`${row.label.padEnd(66)} ${fmt(row.score)}${row.note ? `  (${row.note})` : ''}`);
      console.log('-- recommended similarities (offline, same baskets, filled from popularity):');
      for (const [key, s] of Object.entries(r.sweeps.recommended)) console.log(`   ${key.padEnd(63)} ${fmt(s)}`);
      console.log('-- for_you: affinity half-life × neighbour vote (offline; purchases kept | left out):');
      for (const [key, s] of Object.entries(r.sweeps.for_you)) console.log(`   ${key.padEnd(40)} ${fmt(s.kept)} | ${fmt(s.left_out)}`);
      for (const [name, sweep] of [
        [`validation carved from training (${r.blend.split}), ${r.blend.validation.cases} customers: choose k here`, r.blend.validation],
        [`held-out split, ${r.blend.held_out.cases} customers: report only`, r.blend.held_out],
      ] as const) {
        console.log(`-- for_you blend with popularity, α = n/(n+k), purchases first; ${name} (kept | left out):`);
        for (const [key, s] of Object.entries(sweep.variants)) console.log(`   ${key.padEnd(40)} ${fmt(s.kept)} | ${fmt(s.left_out)}`);
      }
      console.log('-- trending: counts × window × half-life (offline, one list for all validation customers):');
      for (const [key, s] of Object.entries(r.sweeps.trending)) console.log(`   ${key.padEnd(63)} ${fmt(s)}`);
      results[data.handle] = { ...r, rows: Object.fromEntries(r.rows.map((row) => [row.key, row.score])) };
    }
  } finally {
    await service?.running.stop();
    rmSync(work, { recursive: true, force: true });
  }
  console.log(
    `\npublic API requests ${requestStats.count}, mean ${(requestStats.ms / Math.max(1, requestStats.count)).toFixed(2)} ms; total ${Math.round(performance.now() - started)} ms`,
  );
  console.log(JSON.stringify({ k: 10, data_dir: dir, datasets: results }));
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
