/**
 * `npx tsx bench/hostile-upstream.ts`: what a hostile billing provider costs everyone else. One shop
 * points its provider at a local server that answers 60 MB, or starts an answer and never finishes
 * it; while 8 clients keep calling that shop's reactivation endpoint, another shop's uncached list is
 * timed and the server's RSS sampled. Figures are against a baseline of the same run with no such
 * traffic, and against the same traffic to a polite provider (a small 404
 * at once). The last line printed is one JSON object with every figure.
 *
 * Settings (environment): HOSTILE_REQUESTS (300 list requests per phase), HOSTILE_CLIENTS (8).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess } from './lib/processes.js';

const REQUESTS = Number(process.env.HOSTILE_REQUESTS ?? 300);
const CLIENTS = Number(process.env.HOSTILE_CLIENTS ?? 8);
const TOKEN = 'hostile-bench-operator-token-0123456789';

type Mode = 'polite' | 'flood' | 'stall';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** One server and one hostile provider in `mode`: a baseline of the other shop's list, then the same under attack. */
async function run(mode: Mode): Promise<Record<string, unknown>> {
  const hostile = await startProcess(['bench/lib/hostile-provider.mjs'], { HOSTILE_MODE: mode }, 0, '/ready');
  const work = mkdtempSync(join(tmpdir(), 'rebound-hostile-'));
  const server = await startProcess(
    ['--import', 'tsx', 'src/cli/main.ts', 'serve'],
    {
      DATABASE_URL: `sqlite:${join(work, 'bench.db')}`,
      REBOUND_ADMIN_TOKEN: TOKEN,
      REBOUND_DEMO: 'false',
      LOG_LEVEL: 'error',
      REBOUND_SECRET_KEY: '5e'.repeat(32),
      REBOUND_ALLOW_PRIVATE_UPSTREAMS: 'true',
      HOST: '127.0.0.1',
      // One process, so the RSS sampled is the one serving the calls.
      REBOUND_WORKERS: '1',
    },
    0,
    '/readyz',
  );
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  const keyOf = async (handle: string, scope: 'public' | 'private') => {
    const shop = (await admin('POST', '/admin/v1/shops', { handle, name: handle })) as { keys: Record<string, string> };
    const limits = { rate_limit_public_per_minute: 1_000_000, rate_limit_private_per_minute: 1_000_000 };
    await admin('PATCH', `/admin/v1/shops/${handle}`, { settings: limits });
    return shop.keys[scope]!;
  };
  const otherKey = await keyOf('other', 'public');
  const products = Array.from({ length: 2000 }, (_, i) => ({
    id: i + 1,
    title: `Product ${i + 1}`,
    handle: `product-${i + 1}`,
    body_html: `<p>About product ${i + 1}</p>`,
    tags: [`tag-${i % 20}`],
    variants: [{ id: 100_000 + i, price: `${(i % 90) + 10}.00`, inventory_quantity: 5 }],
  }));
  await admin('PUT', '/admin/v1/shops/other/products', products);
  const hostileKey = await keyOf('hostile', 'private');
  await admin('PUT', '/admin/v1/shops/hostile/billing/provider', {
    type: 'remote',
    base_url: hostile.url,
    api_token: 'tok',
  });

  const listUrl = `${server.url}/api/v1/products/trending_products?key=${otherKey}&limit=10&bust_cache=yes`;
  const timeList = async (): Promise<{ p50: number; p95: number; max: number }> => {
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      const res = await fetch(listUrl);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`list answered ${res.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 100) / 100;
    return { p50: round(percentile(times, 0.5)), p95: round(percentile(times, 0.95)), max: round(times.at(-1)!) };
  };

  await timeList(); // warm: the shop is loaded on its first request
  const baseline = await timeList();
  const rssBefore = server.rssMb();
  let running = true;
  let peak = rssBefore;
  const statuses = new Map<number, number>();
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rssMb());
  }, 20);
  const attackers = Array.from({ length: CLIENTS }, async () => {
    while (running) {
      const res = await fetch(
        `${server.url}/api/v1/billing/reactivate?key=${hostileKey}&billing_customer_id=100&request_type=live`,
      );
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  });
  const during = await timeList();
  running = false;
  await Promise.all(attackers);
  clearInterval(sampler);
  await server.stop();
  await hostile.stop();
  rmSync(work, { recursive: true, force: true });
  const figures = {
    baseline_list_ms: baseline,
    list_ms: during,
    rss_before_mb: rssBefore,
    rss_peak_mb: peak,
    rss_growth_mb: peak - rssBefore,
  };
  console.log(
    `${mode}: other shop's uncached list p50 ${during.p50} ms, p95 ` +
      `${during.p95} ms (baseline ${baseline.p50} / ${baseline.p95}); ` +
      `RSS ${rssBefore} → peak ${peak} MB (+${peak - rssBefore}); hostile ` +
      `calls answered ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  return { ...figures, hostile_answers: Object.fromEntries(statuses) };
}

const results = {
  requests: REQUESTS,
  clients: CLIENTS,
  polite: await run('polite'),
  flood: await run('flood'),
  stall: await run('stall'),
};
console.log(JSON.stringify(results));
