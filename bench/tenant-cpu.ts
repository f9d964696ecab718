/**
 * What a storefront request costs the server in CPU when many shops share a node: the traffic of
 * `npm run bench:tenants` (bench/lib/tenant-load.ts) against one or more built servers in turn,
 * each on the same prepared database, and per build the server's CPU time over the recorded
 * window divided by the requests it answered, beside the shop loads and answer-cache hits of
 * that window (from `/metrics`). CPU per request moves far less with the machine's load than
 * requests per second or latency do, so builds compare on it under shared machines.
 *
 *   TENANT_CPU_SERVERS=<dir>,<dir> TENANT_CPU_ROUNDS=2 npx tsx bench/tenant-cpu.ts
 *
 * Settings: TENANTS_SHOPS (400), TENANTS_PRODUCTS (150), TENANTS_BUDGET_MB (512), TENANTS_ZIPF (1.1),
 * TENANTS_SECONDS (20), TENANTS_WARMUP_SECONDS (5), TENANTS_DIR (as bench:tenants: prepared once),
 * TENANT_CPU_PROFILE_DIR (none). Each server runs with its checkout's start-script node flags.
 * A build that predates a migration of this checkout reads a copy of the prepared file of its own schema.
 */
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTenantLoad } from './lib/tenant-load.js';
import { OPERATOR_TOKEN, prepareTenants } from './lib/tenants-data.js';
import { databaseFor } from './lib/earlier-schema.js';
import { startFlags, startProcess, type Running } from './lib/processes.js';

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SERVERS = (process.env.TENANT_CPU_SERVERS ?? '.').split(',');
const ROUNDS = setting('TENANT_CPU_ROUNDS', 1);
const SECONDS = setting('TENANTS_SECONDS', 20);
const WARMUP = setting('TENANTS_WARMUP_SECONDS', 5);
/** TENANT_CPU_PROFILE_DIR: each server writes a CPU profile of its main thread there (node --cpu-prof). */
const PROFILE_DIR = process.env.TENANT_CPU_PROFILE_DIR;
const PROFILE_FLAGS = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];

/** The counters of `/metrics` a window is read from. */
async function counters(server: Running): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const [name, value] = line.split(' ');
    if (name && /^rebound_(shop_loads|cache_hits|cache_misses|resident_shops)$/.test(name)) out[name] = Number(value);
  }
  return out;
}

async function measure(dir: string, file: string, shops: Parameters<typeof runTenantLoad>[1]) {
  const server = await startProcess(
    [...startFlags(dir), ...PROFILE_FLAGS, join(dir, 'dist/src/cli/main.js'), 'serve'],
    {
      REBOUND_WORKERS: '1',
      DATABASE_URL: `sqlite:${file}`,
      REBOUND_ADMIN_TOKEN: OPERATOR_TOKEN,
      REBOUND_DEMO: 'false',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      REBOUND_MEMORY_BUDGET_MB: String(setting('TENANTS_BUDGET_MB', 512)),
    },
    0,
    '/readyz',
  );
  // The recorded window starts when the warm-up ends.
  const start = { cpuMs: 0, counters: {} as Record<string, number> };
  const mark = setTimeout(async () => {
    start.cpuMs = server.cpuMs();
    start.counters = await counters(server);
  }, WARMUP * 1000);
  const loadBefore = loadavg()[0]!;
  const result = await runTenantLoad(server.url, shops, {
    connections: 10,
    seconds: SECONDS,
    warmupSeconds: WARMUP,
    s: setting('TENANTS_ZIPF', 1.1),
  });
  clearTimeout(mark);
  const cpuMs = server.cpuMs() - start.cpuMs;
  const end = await counters(server);
  await server.stop();
  const delta = (name: string) => end[name]! - (start.counters[name] ?? 0);
  const hits = delta('rebound_cache_hits');
  return {
    server: dir,
    load_average: [loadBefore, loadavg()[0]!].map((l) => Number(l.toFixed(1))),
    rps: result.rps,
    cpu_ms_per_request: Number((cpuMs / result.requests).toFixed(3)),
    loads_per_request: Number((delta('rebound_shop_loads') / result.requests).toFixed(3)),
    cache_hit_share: Number((hits / (hits + delta('rebound_cache_misses'))).toFixed(2)),
    resident: end.rebound_resident_shops,
    hot: result.tiers.hot,
    cold: result.tiers.cold,
  };
}

async function main(): Promise<void> {
  const data = await prepareTenants(
    process.env.TENANTS_DIR ?? join(tmpdir(), 'rebound-tenants'),
    { shops: setting('TENANTS_SHOPS', 400), products: setting('TENANTS_PRODUCTS', 150) },
    (line) => console.log(line),
  );
  const rows = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const dir of SERVERS) {
      const row = await measure(dir, databaseFor(dir, data.file), data.shops);
      rows.push(row);
      console.log(
        `${dir}: ${row.rps} req/s, CPU ${row.cpu_ms_per_request} ms ` +
          `a request, ${row.loads_per_request} loads a request, ` +
          `answer-cache hits ${row.cache_hit_share}, ${row.resident} ` +
          `resident, hot p50/p99 ${row.hot.p50Ms}/${row.hot.p99Ms} ms, ` +
          `cold p50 ${row.cold.p50Ms} ms (load average ${row.load_average.join(' → ')})`,
      );
    }
  }
  console.log(JSON.stringify(rows));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
