/**
 * `npm run bench`: start-up, import, memory and throughput of the built server, each next to
 * a bare node:http server sending the same bytes, measured in the same run on this machine.
 * The last line printed is one JSON object with every figure.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoShop } from '../demo/generate.js';
import { load, type LoadResult } from './lib/load.js';
import { startProcess } from './lib/processes.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TOKEN = 'bench-operator-token-0123456789abcdef';
const work = mkdtempSync(join(tmpdir(), 'rebound-bench-'));
const serverArgs = ['dist/src/cli/main.js', 'serve'];
const env = (db: string, demo: boolean) => ({ DATABASE_URL: `sqlite:${join(work, db)}`, REBOUND_ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'warn', REBOUND_DEMO: String(demo), HOST: '127.0.0.1' });

async function admin(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

async function main() {
  const rows: [string, string][] = [];
  const row = (name: string, value: string) => { rows.push([name, value]); console.log(`${name.padEnd(44)} ${value}`); };

  // 1. First start on an empty database: creates and loads the demo shop.
  const first = await startProcess(serverArgs, env('demo.db', true), 3101, '/readyz');
  row('start-up, empty database + demo seed (ms)', String(first.startMs));
  await first.stop();
  // 2. Restart on the same file: the data is there, only the indexes load.
  const demo = await startProcess(serverArgs, env('demo.db', true), 3101, '/readyz');
  row('start-up, demo shop already stored (ms)', String(demo.startMs));
  row('RSS with the demo shop loaded (MB)', String(demo.rssMb()));
  const demoShops = await admin(demo.url, 'GET', '/admin/v1/shops');
  await demo.stop();

  // 3. Import 10,000 products into a new shop, 1,000 per request.
  const server = await startProcess(serverArgs, env('bench.db', false), 3102, '/readyz');
  const created = await admin(server.url, 'POST', '/admin/v1/shops', { handle: 'bench', name: 'Bench', scopes: ['read_markets'] });
  const data = generateDemoShop({ seed: 7, productCount: 10_000, publicUrl: server.url });
  const importStart = performance.now();
  for (let i = 0; i < data.products.length; i += 1000) {
    await admin(server.url, 'PUT', '/admin/v1/shops/bench/products', data.products.slice(i, i + 1000));
  }
  const importMs = Math.round(performance.now() - importStart);
  row('import 10,000 products, 1,000 per request (ms)', String(importMs));
  await admin(server.url, 'PUT', '/admin/v1/shops/bench/collections', data.collections);
  await admin(server.url, 'PUT', '/admin/v1/shops/bench/markets', data.markets);
  const ordersStart = performance.now();
  await admin(server.url, 'PUT', '/admin/v1/shops/bench/orders', data.orders);
  row(`import ${data.orders.length} orders, one request (ms)`, String(Math.round(performance.now() - ordersStart)));
  row('RSS with 10,000 products loaded (MB)', String(server.rssMb()));

  // 4. Throughput: static with 10 products against the ceiling, same bytes.
  const key = created.keys.public as string;
  const listable = data.products.filter((p) => p.status !== 'draft' && p.published_at !== null && !String(p.tags).includes('exclude_rebound'));
  const ids = listable.slice(0, 40).map((p) => p.id);
  const probe = await fetch(`${server.url}/api/v1/products/static?key=${key}&ids=${ids.join(',')}&limit=10&filter_oos=no`);
  const staticBody = Buffer.from(await probe.arrayBuffer());
  const staticUrl = `${server.url}/api/v1/products/static?key=${key}&ids=${ids.join(',')}&limit=10&filter_oos=no`;
  const staticResult = await load(staticUrl, { seconds: SECONDS });
  const bodyFile = join(work, 'static.json');
  writeFileSync(bodyFile, staticBody);
  const ceiling = await startProcess(['bench/lib/ceiling-server.mjs', bodyFile], {}, 3103, '/');
  const ceilingResult = await load(`${ceiling.url}/`, { seconds: SECONDS });
  await ceiling.stop();
  const rssAfter = server.rssMb();
  await server.stop();

  const show = (name: string, r: LoadResult) => row(name, `${r.rps} req/s, p99 ${r.p99Ms} ms, errors ${r.errors}, non-2xx ${r.non2xx}`);
  console.log(`\nanswer size: ${staticBody.length} bytes (10 products), ${SECONDS} s per run, 10 connections`);
  show('ceiling: node:http, same bytes from a Buffer', ceilingResult);
  show('GET /api/v1/products/static (10 products)', staticResult);
  row('static / ceiling', (staticResult.rps / ceilingResult.rps).toFixed(2));

  rmSync(work, { recursive: true, force: true });
  console.log(JSON.stringify({
    ceiling_rps: ceilingResult.rps,
    static_rps: staticResult.rps,
    static_p99_ms: staticResult.p99Ms,
    answer_bytes: staticBody.length,
    startup_demo_seed_ms: first.startMs,
    startup_demo_ms: demo.startMs,
    demo_shops: demoShops.data.length,
    import_10k_products_ms: importMs,
    rss_mb: rssAfter,
    ratios: { static: Number((staticResult.rps / ceilingResult.rps).toFixed(3)) },
  }));
}

main().catch((error: unknown) => {
  console.error(error);
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
});
