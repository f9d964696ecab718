/**
 * What a fresh server is made of, and what the memory budget leaves its shops: docs/scaling.md's
 * "What a fresh process is made of". Each start, for each build in turn:
 *
 * 1. `serve` (with `npm start`'s node flags, one process, budget 160 MB, `REBOUND_DEMO=false`) on a
 *    new, empty SQLite file: RSS, its anonymous part and the process's threads a few seconds after it
 *    listens, before any request.
 * 2. A shop created by `rebound shops create` (another process), then `serve` again on that database,
 *    as a node that only reads: the same figures before its first request, then one storefront
 *    request (the shop loads, the baseline is measured) and the shops' share from `/metrics`.
 *
 *   FRESH_BUILDS=base=/path/to/other/checkout,this=. FRESH_STARTS=4 npx tsx bench/fresh-node.ts
 *
 * A build is a checkout whose `dist/` is built (`npx tsc -p tsconfig.build.json`). Prints one JSON
 * line per start and the medians. `FRESH_DEMO=true`: the first start seeds the demo shop (1,000
 * products, so its load runs the assembly thread) and the second serves it instead.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT, startFlags } from './lib/processes.js';

const BUDGET_MB = Number(process.env.FRESH_BUDGET_MB ?? 160);
const STARTS = Number(process.env.FRESH_STARTS ?? 4);
/** After "Listening on": start-up's last work (the first refresh, the thread's exit) is done by then. */
const SETTLE_MS = Number(process.env.FRESH_SETTLE_MS ?? 3000);
const BUILDS = (process.env.FRESH_BUILDS ?? 'this=.').split(',').map((entry) => {
  const [name, dir] = entry.split('=') as [string, string];
  return { name, dir: resolve(ROOT, dir) };
});
const DEMO = process.env.FRESH_DEMO === 'true';
const ADMIN_TOKEN = 'fresh-node-bench-admin-token-0123456789';

interface Figures {
  rssMb: number;
  anonMb: number;
  threads: number;
}

function figures(pid: number): Figures {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return {
    rssMb: Math.round(kb('VmRSS') / 102.4) / 10,
    anonMb: Math.round(kb('RssAnon') / 102.4) / 10,
    threads: readdirSync(`/proc/${pid}/task`).length,
  };
}

function env(file: string, demo = false): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: `sqlite:${file}`,
    REBOUND_DEMO: String(demo),
    REBOUND_MEMORY_BUDGET_MB: String(BUDGET_MB),
    REBOUND_WORKERS: '1',
    REBOUND_ADMIN_TOKEN: ADMIN_TOKEN,
    REDIS_URL: '',
    PORT: '0',
  };
}

/** Starts `serve`, waits until it listens and SETTLE_MS more; returns its address, figures and a stop. */
async function serve(dir: string, file: string, demo = false) {
  const child = spawn(process.execPath, [...startFlags(dir), join(dir, 'dist/src/cli/main.js'), 'serve'], {
    env: env(file, demo),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const deadline = Date.now() + 60_000;
  let url: string | undefined;
  while (!url) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not listen:\n${output}`);
    url = /Listening on (http:\/\/\S+)/.exec(output)?.[1]?.replace('0.0.0.0', '127.0.0.1');
    await new Promise((r) => setTimeout(r, 25));
  }
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return { url, pid: child.pid!, before: figures(child.pid!), stop, output: () => output };
}

async function allowanceMb(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const bytes = Number(/^rebound_resident_allowance_bytes (\S+)$/m.exec(text)?.[1]);
  return Math.round(bytes / 2 ** 20 / 0.1) / 10;
}

/** A shop made by another process, as a node that only serves would find it; returns its public key. */
function createShop(dir: string, file: string): string {
  const created = spawnSync(
    process.execPath,
    [join(dir, 'dist/src/cli/main.js'), 'shops', 'create', '--handle', 'fresh', '--name', 'Fresh'],
    { env: env(file), encoding: 'utf8' },
  );
  const key = /public key: (\S+)/.exec(created.stdout)?.[1];
  if (!key) throw new Error(`no shop created: ${created.stdout}${created.stderr}`);
  return key;
}

async function start(dir: string) {
  const tmp = mkdtempSync(join(tmpdir(), 'rebound-fresh-'));
  const file = join(tmp, 'rebound.db');
  try {
    const empty = await serve(dir, file, DEMO);
    await empty.stop();
    const key = DEMO ? /public key:\s+(\S+)/.exec(empty.output())?.[1] : createShop(dir, file);
    if (!key) throw new Error(`no demo shop seeded: ${empty.output()}`);
    const reads = await serve(dir, file);
    const res = await fetch(`${reads.url}/api/v1/products/trending_products?key=${key}&limit=10`);
    if (!res.ok) throw new Error(`storefront request: ${res.status}`);
    const share = await allowanceMb(reads.url);
    const after = figures(reads.pid);
    await reads.stop();
    return { empty: empty.before, reads: reads.before, afterLoad: after, shareMb: share };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const runs = new Map<string, Awaited<ReturnType<typeof start>>[]>(BUILDS.map((b) => [b.name, []]));
  // Builds alternate, so a change in the machine's load falls on both.
  for (let i = 0; i < STARTS; i++) {
    for (const build of BUILDS) {
      const run = await start(build.dir);
      runs.get(build.name)!.push(run);
      console.log(JSON.stringify({ build: build.name, start: i + 1, ...run }));
    }
  }
  for (const [name, list] of runs) {
    const pick = (f: (r: (typeof list)[number]) => number) => median(list.map(f));
    console.log(
      JSON.stringify({
        build: name,
        median: {
          emptyRssMb: pick((r) => r.empty.rssMb),
          emptyAnonMb: pick((r) => r.empty.anonMb),
          emptyThreads: pick((r) => r.empty.threads),
          readsRssMb: pick((r) => r.reads.rssMb),
          readsAnonMb: pick((r) => r.reads.anonMb),
          readsThreads: pick((r) => r.reads.threads),
          afterLoadRssMb: pick((r) => r.afterLoad.rssMb),
          afterLoadThreads: pick((r) => r.afterLoad.threads),
          shareMb: pick((r) => r.shareMb),
        },
      }),
    );
  }
}

await main();
