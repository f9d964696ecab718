/**
 * `npm run bench:workers`: the multi-tenant load (400 shops of 150 products by default, Zipf 1.1,
 * 10 clients) against nodes of one and two worker processes, with and without key routing, each
 * process under its own memory budget (160 MB). Reports throughput, latency of hot and cold shops,
 * and per worker: shops loaded, shops resident and peak RSS. The last line printed is one JSON
 * object with every figure.
 *
 * Settings (environment): WORKERS_RUNS (`1,2:off,2`: a worker count, `:off` for key routing off,
 * `base:` before it for the server in WORKERS_BASE_SERVER), WORKERS_MODE (`shared`: all shops over
 * the same keep-alive connections, as behind a proxy; `per-shop`: each shop over its own, as from
 * browsers; `close`: a new connection per request), WORKERS_BUST (1: every answer computed),
 * WORKERS_SECONDS (15, after WORKERS_WARMUP_SECONDS, 5), and TENANTS_SHOPS, TENANTS_PRODUCTS,
 * TENANTS_BUDGET_MB, TENANTS_ZIPF, TENANTS_CONNECTIONS, TENANTS_DIR as bench/tenants.ts reads them.
 */
import { readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConnectionMode, runTenantLoad, type TenantLoadResult } from './lib/tenant-load.js';
import { OPERATOR_TOKEN, prepareTenants } from './lib/tenants-data.js';
import { cpuMs, rssMb, startProcess, type Running } from './lib/processes.js';

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SHOPS = setting('TENANTS_SHOPS', 400);
const PRODUCTS = setting('TENANTS_PRODUCTS', 150);
const BUDGET_MB = setting('TENANTS_BUDGET_MB', 160);
const ZIPF = setting('TENANTS_ZIPF', 1.1);
const CONNECTIONS = setting('TENANTS_CONNECTIONS', 10);
const SECONDS = setting('WORKERS_SECONDS', 15);
const WARMUP = setting('WORKERS_WARMUP_SECONDS', 5);
const MODE = (process.env.WORKERS_MODE ?? 'shared') as ConnectionMode;
const BUST = process.env.WORKERS_BUST === '1';
const RUNS = (process.env.WORKERS_RUNS ?? '1,2:off,2').split(',');
const BASE_SERVER = process.env.WORKERS_BASE_SERVER ?? '.';
const DIR = process.env.TENANTS_DIR ?? join(tmpdir(), 'rebound-tenants');

/** The worker processes of a node (children of its primary), or the process itself when it has none. */
function processesOf(server: Running): number[] {
  const pid = server.child.pid!;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return children === '' ? [pid] : children.split(/\s+/).map(Number);
}

/** A counter or gauge of /metrics by worker label ("1" for a single process). */
async function perWorker(server: Running, name: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (line !== name && !line.startsWith(`${name} `) && !line.startsWith(`${name}{`)) continue;
    const worker = /worker="(\d+)"/.exec(line)?.[1] ?? '1';
    out[worker] = Number(line.split(' ').pop());
  }
  return out;
}

interface RunFigures {
  run: string;
  rps: number;
  errors: number;
  hot: TenantLoadResult['tiers']['hot'];
  cold: TenantLoadResult['tiers']['cold'];
  loads: Record<string, number>;
  /** Shop loads and CPU time of every process of the node (primary included) per recorded request. */
  loadsPerRequest: number;
  cpuMsPerRequest: number;
  /** The primary's share of it (accepting and handing out connections; routing reads each first head). */
  primaryCpuMsPerRequest: number | null;
  resident: Record<string, number>;
  peakRssMbPerWorker: number;
  primaryRssMb: number | null;
  loadAverage: number;
}

async function measure(run: string, data: Awaited<ReturnType<typeof prepareTenants>>): Promise<RunFigures> {
  const [dir, spec] = run.startsWith('base:') ? [BASE_SERVER, run.slice(5)] : ['.', run];
  const [workers, routing] = spec.split(':');
  const server = await startProcess(
    [join(dir, 'dist/src/cli/main.js'), 'serve'],
    {
      REBOUND_WORKERS: workers!,
      REBOUND_KEY_ROUTING: routing === 'off' ? 'false' : 'true',
      DATABASE_URL: `sqlite:${data.file}`,
      REBOUND_ADMIN_TOKEN: OPERATOR_TOKEN,
      REBOUND_DEMO: 'false',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      REBOUND_MEMORY_BUDGET_MB: String(BUDGET_MB),
    },
    0,
    '/readyz',
  );
  // Every worker serves before the load begins (the others start once the first does): each answers for its
  // registry in the node's /metrics once its server is built, and takes connections a moment later.
  const answering = async () => Object.keys(await perWorker(server, 'rebound_resident_shops')).length;
  while ((await answering()) < Number(workers)) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, Number(workers) > 1 ? 1000 : 0));
  let peak = 0;
  let second = 0;
  const cpu = () => [...new Set([server.child.pid!, ...processesOf(server)])].reduce((sum, pid) => sum + cpuMs(pid), 0);
  const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  let recordFrom: Promise<{ cpu: number; primaryCpu: number; loads: number }> = Promise.resolve({
    cpu: 0,
    primaryCpu: 0,
    loads: 0,
  });
  const result = await runTenantLoad(server.url, data.shops, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    warmupSeconds: WARMUP,
    s: ZIPF,
    connectionMode: MODE,
    bustCache: BUST,
    onSecond: () => {
      if (++second === WARMUP) {
        const [at, primaryAt] = [cpu(), server.cpuMs()];
        recordFrom = perWorker(server, 'rebound_shop_loads').then((l) => ({
          cpu: at,
          primaryCpu: primaryAt,
          loads: sum(l),
        }));
      }
      for (const pid of processesOf(server)) peak = Math.max(peak, rssMb(pid));
    },
  });
  const [cpuAfter, primaryCpuAfter] = [cpu(), server.cpuMs()];
  const loads = await perWorker(server, 'rebound_shop_loads');
  const from = await recordFrom;
  const figures: RunFigures = {
    run,
    rps: result.rps,
    errors: result.errors,
    hot: result.tiers.hot,
    cold: result.tiers.cold,
    loads,
    loadsPerRequest: Number(((sum(loads) - from.loads) / result.requests).toFixed(3)),
    cpuMsPerRequest: Number(((cpuAfter - from.cpu) / result.requests).toFixed(2)),
    primaryCpuMsPerRequest:
      Number(workers) > 1 ? Number(((primaryCpuAfter - from.primaryCpu) / result.requests).toFixed(3)) : null,
    resident: await perWorker(server, 'rebound_resident_shops'),
    peakRssMbPerWorker: peak,
    primaryRssMb: Number(workers) > 1 ? server.rssMb() : null,
    loadAverage: Number(loadavg()[0]!.toFixed(1)),
  };
  await server.stop();
  return figures;
}

async function main(): Promise<void> {
  const data = await prepareTenants(DIR, { shops: SHOPS, products: PRODUCTS }, console.log);
  const bust = BUST ? ', bust_cache=yes' : '';
  console.log(
    `${SHOPS} shops × ${PRODUCTS} products, Zipf ${ZIPF}, ${CONNECTIONS} clients, connections ${MODE}${bust}, ` +
      `${BUDGET_MB} MB a process, ${WARMUP} s warm-up + ${SECONDS} s`,
  );
  const all: RunFigures[] = [];
  for (const run of RUNS) {
    const f = await measure(run, data);
    all.push(f);
    const primaryCpu = f.primaryCpuMsPerRequest === null ? '' : ` (primary ${f.primaryCpuMsPerRequest})`;
    const primaryRss = f.primaryRssMb === null ? '' : `, primary ${f.primaryRssMb} MB`;
    console.log(
      [
        `${run.padEnd(10)} ${String(f.rps).padStart(5)} req/s`,
        `errors ${f.errors}`,
        `hot p50/p99 ${f.hot.p50Ms}/${f.hot.p99Ms} ms`,
        `cold p50/p99 ${f.cold.p50Ms}/${f.cold.p99Ms} ms`,
        `loads ${JSON.stringify(f.loads)} (${f.loadsPerRequest}/req)`,
        `CPU ${f.cpuMsPerRequest} ms/req${primaryCpu}`,
        `resident ${JSON.stringify(f.resident)}`,
        `peak RSS ${f.peakRssMbPerWorker} MB/worker${primaryRss}`,
        `load avg ${f.loadAverage}`,
      ].join('  '),
    );
  }
  console.log(JSON.stringify({ shops: SHOPS, products: PRODUCTS, zipf: ZIPF, mode: MODE, bust: BUST, runs: all }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
