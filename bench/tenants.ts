/**
 * `npm run bench:tenants`: one node serving many small shops under a memory budget. Prepares
 * 1,000 shops of 200 products once (reused by later runs), checks the memory estimate against a
 * measured load, then sends Zipf-distributed storefront traffic for a fixed time and reports
 * throughput, latency by shop popularity, loads and evictions, and RSS over time against the
 * budget; then the cold-load time of a 1,000- and a 10,000-product shop; last, the same traffic
 * against a bare node:http server sending the server's answers' bytes (the ceiling: what the load
 * generator and the machine allow, latency included). The last line printed is one JSON object
 * with every figure.
 *
 * Settings (environment): TENANTS_SHOPS (1000), TENANTS_PRODUCTS (200), TENANTS_SECONDS (60, recorded
 * after TENANTS_WARMUP_SECONDS, 10, of unrecorded traffic),
 * TENANTS_CONNECTIONS (10), TENANTS_BUDGET_MB (512, the default), TENANTS_ZIPF (1.0 = the exponent),
 * TENANTS_DIR (where the prepared database is kept; default <tmp>/rebound-tenants), TENANTS_WORKERS (1:
 * REBOUND_WORKERS; figures are then summed over the workers, RSS followed per process),
 * TENANTS_CONNECTION_MODE (shared), TENANTS_RATE (0: a closed loop; else requests a second, paced),
 * TENANTS_ROUNDS, TENANTS_ROUND_SECONDS, TENANTS_BASE and TENANTS_BASE_NODE_FLAGS (alternating rounds beside the
 * ceiling and an earlier build, below).
 */
import { writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConnectionMode, runTenantLoad } from './lib/tenant-load.js';
import { NodeRss, scrapeNode } from './lib/tenant-node.js';
import { databaseFor } from './lib/earlier-schema.js';
import { LARGE_SHOPS, OPERATOR_TOKEN, prepareTenants, type TenantShop } from './lib/tenants-data.js';
import { ROOT, startFlags, startProcess, type Running } from './lib/processes.js';
import { captureAnswers, runCeiling } from './lib/tenant-ceiling.js';
import { roundPhase, type RoundPhase } from './lib/tenant-round-phase.js';

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SHOPS = setting('TENANTS_SHOPS', 1000);
const PRODUCTS = setting('TENANTS_PRODUCTS', 200);
const SECONDS = setting('TENANTS_SECONDS', 60);
const WARMUP = setting('TENANTS_WARMUP_SECONDS', 10);
const CONNECTIONS = setting('TENANTS_CONNECTIONS', 10);
/** TENANTS_RATE: requests a second over all connections (paced), instead of a closed loop (0). */
const RATE = setting('TENANTS_RATE', 0);
const BUDGET_MB = setting('TENANTS_BUDGET_MB', 512);
const ZIPF = setting('TENANTS_ZIPF', 1);
const DIR = process.env.TENANTS_DIR ?? join(tmpdir(), 'rebound-tenants');
/** Processes of the server (REBOUND_WORKERS): the targets are per process, so one unless asked. */
const WORKERS = setting('TENANTS_WORKERS', 1);
/** TENANTS_CONNECTION_MODE: `shared` (a proxy in front), `per-shop` (browsers), `close` (lib/tenant-load.ts). */
const CONNECTION_MODE = (process.env.TENANTS_CONNECTION_MODE ?? 'shared') as ConnectionMode;
/** TENANTS_SERVER: another checkout's built server (an earlier version) under the same load and data. */
const SERVER_DIR = process.env.TENANTS_SERVER ?? '.';
const MB = 1024 * 1024;
/** TENANTS_NODE_FLAGS: node flags added to those of the server's start script (comparisons of V8 settings). */
const EXTRA_FLAGS = (process.env.TENANTS_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
/**
 * TENANTS_ROUNDS (1: none): after the recorded run, this many alternating rounds of TENANTS_ROUND_SECONDS (5)
 * each to the server, TENANTS_BASE (an earlier build's checkout, optional) and the bare server
 * (lib/tenant-round-phase.ts): ratios taken at the same moments, where runs minutes apart differ by half.
 */
const ROUNDS = setting('TENANTS_ROUNDS', 1);
const ROUND_SECONDS = setting('TENANTS_ROUND_SECONDS', 5);
const BASE_DIR = process.env.TENANTS_BASE;
/**
 * TENANTS_BASE_NODE_FLAGS: node flags added to the earlier build's (TENANTS_NODE_FLAGS unless set): `TENANTS_BASE=.`
 * with other flags compares V8 settings of one build in the same rounds.
 */
const BASE_FLAGS = (process.env.TENANTS_BASE_NODE_FLAGS ?? process.env.TENANTS_NODE_FLAGS ?? '')
  .split(/\s+/)
  .filter(Boolean);
/** TENANTS_SERVER_OUTPUT: a file for the server's output (with TENANTS_NODE_FLAGS=--trace-gc, its collections). */
const SERVER_OUTPUT = process.env.TENANTS_SERVER_OUTPUT;

/** The estimate against live memory, measured in a process of its own with garbage collection on demand. */
function footprint(
  file: string,
  handles: string[],
): {
  ratio: number;
  shops: { handle: string; products: number; estimated: number; measured: number; loadMs: number }[];
} {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/footprint.ts', file, ...handles],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** Live bytes of a shop's parts (products, sales, customers …), each read alone between full collections. */
function components(file: string, handles: string[]): { perShop: Record<string, number>; perProduct: number } {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/lib/tenant-components.ts', file, ...handles],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** First request of a shop that is not in memory (its load included), then the same request again. */
async function coldLoad(
  server: Running,
  shop: TenantShop,
  rssMb: () => number,
): Promise<{ coldMs: number; warmMs: number; rssMb: number }> {
  const url = `${server.url}/api/v1/products/trending_products?key=${shop.key}&limit=10&bust_cache=yes`;
  const timed = async () => {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${shop.handle}: ${res.status}`);
    return Math.round(performance.now() - started);
  };
  const coldMs = await timed();
  return { coldMs, warmMs: await timed(), rssMb: rssMb() };
}

async function main(): Promise<void> {
  const log = (line: string) => console.log(line);
  const prepareStart = performance.now();
  const data = await prepareTenants(DIR, { shops: SHOPS, products: PRODUCTS }, log);
  const prepareMs = Math.round(performance.now() - prepareStart);
  log(`${SHOPS} shops of ${PRODUCTS} products ready in ${Math.round(prepareMs / 1000)} s`);

  const measured = footprint(data.file, [
    ...data.shops.slice(0, 20).map((s) => s.handle),
    ...data.large.map((s) => s.handle),
  ]);
  log(
    'memory estimate vs live memory after GC (20 small shops and the large ones): ' +
      `measured / estimated = ${measured.ratio}`,
  );
  for (const row of measured.shops.filter((r) => r.products > PRODUCTS)) {
    log(
      `  ${row.products} products: estimated ${(row.estimated / MB).toFixed(1)} MB, ` +
        `measured ${(row.measured / MB).toFixed(1)} MB, loaded in ${row.loadMs} ms`,
    );
  }

  const parts = components(
    data.file,
    data.shops.slice(0, 8).map((s) => s.handle),
  );
  log(
    `live bytes of a ${PRODUCTS}-product shop by part: ${Object.entries(parts.perShop)
      .map(([k, v]) => `${k} ${Math.round(v / 1024)} KB`)
      .join(', ')}; ${parts.perProduct} B a product in all`,
  );

  // The prepared file is served as it is (the run writes only load snapshots, which later runs read); an
  // earlier build gets a copy of its own schema (it refuses a database migrated past it).
  const served = databaseFor(SERVER_DIR, data.file);
  const env = {
    REBOUND_WORKERS: String(WORKERS),
    DATABASE_URL: `sqlite:${served}`,
    REBOUND_ADMIN_TOKEN: OPERATOR_TOKEN,
    REBOUND_DEMO: 'false',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    REBOUND_MEMORY_BUDGET_MB: String(BUDGET_MB),
  };
  const flags = [...startFlags(SERVER_DIR), ...EXTRA_FLAGS];
  const server = await startProcess([...flags, join(SERVER_DIR, 'dist/src/cli/main.js'), 'serve'], env, 0, '/readyz');
  const rss = new NodeRss(server);
  const scrape = async () => (await scrapeNode(server)).sum;
  // Every worker serves before the load begins (the others start once the first does).
  while (Object.keys((await scrapeNode(server)).byWorker).length < WORKERS)
    await new Promise((r) => setTimeout(r, 100));
  if (WORKERS > 1) await new Promise((r) => setTimeout(r, 1000));
  const baselineRss = rss.sample();
  const loadBefore = loadavg()[0]!;
  log(
    `\nserver (node ${flags.join(' ') || 'without flags'}) started in ${server.startMs} ms, RSS ${baselineRss} MB, ` +
      `budget ${BUDGET_MB} MB; Zipf (s = ${ZIPF}) traffic over ${SHOPS} shops, ${CONNECTIONS} connections` +
      `${CONNECTION_MODE === 'shared' ? '' : ` (${CONNECTION_MODE})`}, ${WARMUP} s warm-up then ${SECONDS} s recorded`,
  );
  log('   t  RSS MB  resident  estimated MB  heap MB  loads  evictions  req/s');
  const samples: { t: number; rssMb: number }[] = [];
  let peakRss = baselineRss;
  let lastDone = 0;
  let second = 0;
  const timeline: Record<string, number>[] = [];
  const traffic = {
    connections: CONNECTIONS,
    seconds: SECONDS,
    warmupSeconds: WARMUP,
    s: ZIPF,
    connectionMode: CONNECTION_MODE,
    ...(RATE > 0 ? { rate: RATE } : {}),
  };
  const load = runTenantLoad(server.url, data.shops, {
    ...traffic,
    onSecond: (done) => {
      second++;
      const rssMb = rss.sample();
      peakRss = Math.max(peakRss, rssMb);
      samples.push({ t: second, rssMb });
      if (second % 5 !== 0) return;
      const rps = second <= WARMUP ? 0 : Math.round((done - lastDone) / 5);
      lastDone = done;
      // Several workers: the RSS column is the largest worker's, each process's follows the line.
      const byProcess =
        WORKERS > 1 ? `  RSS workers ${rss.last.workers.join('/')} MB, primary ${rss.last.primary} MB` : '';
      void scrape().then((m) => {
        timeline.push({
          t: second,
          rssMb,
          resident: m.rebound_resident_shops!,
          estimatedMb: Math.round(m.rebound_resident_estimated_bytes! / MB),
          loads: m.rebound_shop_loads!,
          evictions: m.rebound_shop_evictions!,
          rps,
          heapUsedMb: Math.round(m.nodejs_heap_size_used_bytes! / MB),
          heapTotalMb: Math.round(m.nodejs_heap_size_total_bytes! / MB),
          externalMb: Math.round(m.nodejs_external_memory_bytes! / MB),
        });
        log(
          [
            [second, 4],
            [rssMb, 6],
            [m.rebound_resident_shops, 8],
            [Math.round(m.rebound_resident_estimated_bytes! / MB), 12],
            [Math.round(m.nodejs_heap_size_used_bytes! / MB), 7],
            [m.rebound_shop_loads, 5],
            [m.rebound_shop_evictions, 9],
            [rps, 5],
          ]
            .map(([value, width]) => String(value).padStart(width!))
            .join('  ') + byProcess,
        );
      });
    },
  });
  const result = await load;
  const loadAfter = loadavg()[0]!;
  const afterNode = await scrapeNode(server);
  const after = afterNode.sum;
  const allowanceMb = Math.round(after.rebound_resident_allowance_bytes! / MB);
  log(
    `\nrecorded: ${result.requests} requests, ${result.rps} req/s, ${result.errors} errors; ` +
      `${result.shopsTouched} shops asked in all`,
  );
  for (const [tier, stats] of Object.entries(result.tiers))
    log(
      `  ${tier.padEnd(5)} ${String(stats.requests).padStart(7)} requests  ` +
        `p50 ${stats.p50Ms} ms  p99 ${stats.p99Ms} ms  max ${stats.maxMs} ms`,
    );
  log(
    `  loads ${after.rebound_shop_loads}, evictions ${after.rebound_shop_evictions}, ` +
      `resident ${after.rebound_resident_shops} shops ` +
      `(estimated ${Math.round(after.rebound_resident_estimated_bytes! / MB)} MB of an allowance of ${allowanceMb} MB)`,
  );
  // Counted since start (the warm-up and the estimate's loads included): what share of answers was served cached.
  const hitRate = after.rebound_cache_hits! / Math.max(1, after.rebound_cache_hits! + after.rebound_cache_misses!);
  log(
    `  answers cached ${after.rebound_cache_hits}, computed ${after.rebound_cache_misses} ` +
      `(${(100 * hitRate).toFixed(1)}% served from the answer cache)`,
  );
  log(
    `  machine load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after ` +
      '(2 cores; other work on the machine slows every figure)',
  );
  const perWorker = Object.entries(afterNode.byWorker).map(([worker, m]) => ({
    worker: Number(worker),
    loads: m.rebound_shop_loads!,
    evictions: m.rebound_shop_evictions!,
    resident: m.rebound_resident_shops!,
  }));
  if (WORKERS > 1) {
    for (const w of perWorker)
      log(`  worker ${w.worker}: loads ${w.loads}, evictions ${w.evictions}, resident ${w.resident} shops`);
    log(
      `  RSS peak of each worker ${rss.workerPeaks().join(', ')} MB, of the primary ${rss.primaryPeak} MB ` +
        `(sampled every second), budget ${BUDGET_MB} MB a process: ` +
        `${peakRss <= BUDGET_MB ? 'under' : 'OVER'} the budget`,
    );
  } else
    log(
      `  RSS peak ${peakRss} MB (sampled every second), budget ${BUDGET_MB} MB: ` +
        `${peakRss <= BUDGET_MB ? 'under' : 'OVER'} the budget`,
    );

  const answers = await captureAnswers(server.url, data.shops[0]!);
  let rounds: RoundPhase | undefined;
  if (ROUNDS > 1)
    rounds = await roundPhase(
      {
        server,
        rounds: ROUNDS,
        seconds: ROUND_SECONDS,
        warmedSeconds: WARMUP + SECONDS,
        workers: WORKERS,
        shops: data.shops,
        traffic,
        answers,
        ...(BASE_DIR ? { base: { dir: BASE_DIR, env, file: data.file, extraFlags: BASE_FLAGS } } : {}),
      },
      log,
    );

  const cold: Record<string, { coldMs: number; warmMs: number; rssMb: number }> = {};
  for (const [i, shop] of data.large.entries()) {
    cold[String(LARGE_SHOPS[i])] = await coldLoad(server, shop, () => rss.sample());
    log(
      `cold load, ${LARGE_SHOPS[i]} products: first request ${cold[String(LARGE_SHOPS[i])]!.coldMs} ms ` +
        `(the next ${cold[String(LARGE_SHOPS[i])]!.warmMs} ms), RSS then ${cold[String(LARGE_SHOPS[i])]!.rssMb} MB`,
    );
  }
  if (SERVER_OUTPUT) writeFileSync(SERVER_OUTPUT, server.output());
  await server.stop();

  const ceiling = await runCeiling(answers, WORKERS, data.shops, traffic);
  log(
    `\nceiling (a bare node:http server, ${WORKERS} process${WORKERS > 1 ? 'es' : ''}, sending the server's answers ` +
      `of each kind, ${answers.map((a) => `${a.name} ${a.answer.body.length} B`).join(', ')}; same traffic): ` +
      `${ceiling.rps} req/s, ${ceiling.errors} errors; the server ${(result.rps / ceiling.rps).toFixed(2)} of it`,
  );
  for (const [tier, stats] of Object.entries(ceiling.tiers))
    log(
      `  ${tier.padEnd(5)} p50 ${stats.p50Ms} ms  p99 ${stats.p99Ms} ms  max ${stats.maxMs} ms ` +
        `(the server: p50 ${result.tiers[tier as keyof typeof result.tiers].p50Ms} ms, ` +
        `p99 ${result.tiers[tier as keyof typeof result.tiers].p99Ms} ms)`,
    );
  console.log(
    JSON.stringify({
      shops: SHOPS,
      products: PRODUCTS,
      seconds: SECONDS,
      warmup_seconds: WARMUP,
      connections: CONNECTIONS,
      rate: RATE || undefined,
      zipf: ZIPF,
      budget_mb: BUDGET_MB,
      workers: WORKERS,
      connection_mode: CONNECTION_MODE,
      per_worker: WORKERS > 1 ? perWorker : undefined,
      peak_rss_mb_workers: WORKERS > 1 ? rss.workerPeaks() : undefined,
      peak_rss_mb_primary: WORKERS > 1 ? rss.primaryPeak : undefined,
      server: SERVER_DIR,
      node_flags: flags,
      allowance_mb: allowanceMb,
      load_average: [Number(loadBefore.toFixed(1)), Number(loadAfter.toFixed(1))],
      prepare_ms: prepareMs,
      start_ms: server.startMs,
      baseline_rss_mb: baselineRss,
      peak_rss_mb: peakRss,
      rps: result.rps,
      errors: result.errors,
      shops_touched: result.shopsTouched,
      tiers: result.tiers,
      ceiling: { rps: ceiling.rps, errors: ceiling.errors, tiers: ceiling.tiers },
      loads: after.rebound_shop_loads,
      snapshot_loads: after.rebound_shop_snapshot_loads,
      answers: { cached: after.rebound_cache_hits, computed: after.rebound_cache_misses },
      evictions: after.rebound_shop_evictions,
      resident: after.rebound_resident_shops,
      estimate_ratio: measured.ratio,
      footprint_large: measured.shops.filter((r) => r.products > PRODUCTS),
      shop_parts: parts,
      cold_loads: cold,
      timeline,
      rss_samples: samples,
      rounds,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
