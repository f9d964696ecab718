/**
 * `npx tsx bench/platform-sync.ts`: a full sync of a large shop from the fake storefront platform
 * (the GraphQL Admin API fake of the tests, in a process of its own) by `rebound connect`, on a
 * fresh SQLite file. Reports the wall time and the connect process's peak RSS (VmHWM) against the
 * memory budget, with the peak RSS of `rebound migrate` on the same machine in the same run as the
 * baseline (what a node costs before it syncs anything). The last line printed is one JSON object.
 *
 * Settings (environment): SYNC_PRODUCTS (10000), SYNC_COLLECTIONS (200), SYNC_CUSTOMERS (20000),
 * SYNC_ORDERS (100000), REBOUND_MEMORY_BUDGET_MB (512), SYNC_PROFILE (a folder
 * for CPU profiles). Products have 3 variants, 2 images and 2 metafields.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/processes.js';

const shape = {
  products: Number(process.env.SYNC_PRODUCTS ?? 10_000),
  variantsPerProduct: 3,
  imagesPerProduct: 2,
  metafieldsPerProduct: 2,
  collections: Number(process.env.SYNC_COLLECTIONS ?? 200),
  customers: Number(process.env.SYNC_CUSTOMERS ?? 20_000),
  orders: Number(process.env.SYNC_ORDERS ?? 100_000),
};
const budgetMb = Number(process.env.REBOUND_MEMORY_BUDGET_MB ?? 512);
const work = mkdtempSync(join(tmpdir(), 'rebound-sync-bench-'));
const env = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(work, 'bench.db')}`,
  LOG_LEVEL: 'silent',
  REBOUND_DEMO: 'false',
  REBOUND_ADMIN_TOKEN: 'sync-bench-operator-token-0123456789',
  REBOUND_SECRET_KEY: '7a'.repeat(32),
  REBOUND_ALLOW_PRIVATE_UPSTREAMS: 'true',
  REBOUND_PLATFORM_POLL_MS: '200',
  REBOUND_PUBLIC_URL: 'https://rebound.example',
  REBOUND_MEMORY_BUDGET_MB: String(budgetMb),
};

const peakMb = (pid: number) => {
  try {
    return Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
};

/** Runs `rebound <args>`; answers its exit code, output, wall time and peak RSS (read until it exits). */
function rebound(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; out: string; ms: number; peakMb: number }> {
  const started = Date.now();
  // SYNC_PROFILE=<dir> writes a CPU profile of each command there.
  const profile = process.env.SYNC_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SYNC_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...env, ...extraEnv },
  });
  let out = '';
  let peak = 0;
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  const sampler = setInterval(() => (peak = Math.max(peak, peakMb(child.pid!))), 100);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearInterval(sampler);
      resolve({ code, out, ms: Date.now() - started, peakMb: peak });
    }),
  );
}

async function startFake(): Promise<{ apiUrl: string; token: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/fake-platform.ts'], {
    cwd: ROOT,
    env: { ...process.env, FAKE_SHAPE: JSON.stringify(shape) },
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  for (;;) {
    const found = /Listening on (\S+) token (\S+)/.exec(out);
    if (found) return { apiUrl: found[1]!, token: found[2]!, stop: () => child.kill('SIGTERM') };
    if (child.exitCode !== null) throw new Error('the fake platform did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const fake = await startFake();
try {
  const baseline = await rebound(['migrate']);
  const created = await rebound(['shops', 'create', '--handle', 'big', '--name', 'Big shop']);
  if (created.code !== 0) throw new Error(created.out);
  console.log(
    `shape ${JSON.stringify(shape)}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (the machine is shared: compare within this run)`,
  );
  const sync = await rebound([
    'connect',
    'big',
    '--domain',
    'big.myshopify.com',
    '--token',
    fake.token,
    '--api-url',
    fake.apiUrl,
  ]);
  const lines = sync.out.trim().split('\n');
  console.log(lines.slice(-2).join('\n'));
  const result = {
    ok: sync.code === 0,
    shape,
    seconds: Math.round(sync.ms / 100) / 10,
    peak_rss_mb: sync.peakMb,
    baseline_peak_rss_mb: baseline.peakMb,
    budget_mb: budgetMb,
    within_budget: sync.peakMb <= budgetMb,
    load_average: loadavg()[0],
  };
  console.log(
    `sync ${result.ok ? 'done' : 'FAILED'} in ${result.seconds} s; peak RSS ${result.peak_rss_mb} ` +
      `MB (baseline ${result.baseline_peak_rss_mb} MB, budget ${budgetMb} MB)`,
  );
  console.log(JSON.stringify(result));
} finally {
  fake.stop();
  rmSync(work, { recursive: true, force: true });
}
