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
const ROUNDS = 4;

function mean(runs: LoadResult[]): LoadResult {
  const avg = (f: (r: LoadResult) => number) => Math.round(runs.reduce((sum, r) => sum + f(r), 0) / runs.length);
  return { rps: avg((r) => r.rps), p99Ms: Math.max(...runs.map((r) => r.p99Ms)), errors: avg((r) => r.errors), non2xx: avg((r) => r.non2xx) };
}
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

/** A five-rule ruleset over the demo catalog: two rules match a product-page request, three do not. */
function benchRuleset(productIds: number[]) {
  const [anchor, ...rest] = productIds;
  return {
    name: 'Bench: five rules',
    rules: [
      { name: 'upsell', logic: [{ rules: [{ type: 'product', operator: 'contains_any', products: [{ product_id: anchor }] }] }], output: [{ type: 'product', products: rest.slice(0, 4).map((id) => ({ product_id: id })) }] },
      { name: 'big cart', logic: [{ rules: [{ type: 'cart_subtotal', operator: 'greater_than', value: '500' }] }], output: [{ type: 'tag', value: 'gift' }], exit_if_matched: true },
      { name: 'vip', logic: [{ rules: [{ type: 'customer_tag', operator: 'contains_any', value: 'vip' }] }], output: [{ type: 'tag', value: 'new' }] },
      { name: 'any day', logic: [{ rules: [{ type: 'day_of_week', operator: 'contains_any', value: 'mon,tue,wed,thu,fri,sat,sun' }, { type: 'cart_item_count', operator: 'less_than', value: '10' }] }], output: [{ type: 'tag', value: 'bestseller' }] },
      { name: 'fallback', logic: [], output: [{ type: 'endpoint', endpoint: `/products/static?ids=${rest.slice(4, 14).join(',')}` }] },
    ],
  };
}

async function main() {
  const rows: [string, string][] = [];
  const row = (name: string, value: string) => { rows.push([name, value]); console.log(`${name.padEnd(48)} ${value}`); };
  const results: Record<string, LoadResult> = {};
  /**
   * Measures an endpoint against a bare node:http server sending its exact bytes. The machine is
   * noisy, so the two alternate in short rounds and each figure is the mean over the rounds.
   */
  const measure = async (name: string, url: string) => {
    const probe = await fetch(url);
    if (!probe.ok) throw new Error(`${url}: ${probe.status} ${await probe.text()}`);
    const body = Buffer.from(await probe.arrayBuffer());
    const file = join(work, `${name}.json`);
    writeFileSync(file, body);
    const ceiling = await startProcess(['bench/lib/ceiling-server.mjs', file], {}, 3103, '/');
    const target: LoadResult[] = [];
    const bare: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      target.push(await load(url, { seconds: SECONDS / ROUNDS }));
      bare.push(await load(`${ceiling.url}/`, { seconds: SECONDS / ROUNDS }));
    }
    await ceiling.stop();
    const r = results[name] = mean(target);
    const c = results[`${name}_ceiling`] = mean(bare);
    row(`${name} (${body.length} B)`, `${r.rps} req/s, p99 ${r.p99Ms} ms, errors ${r.errors + r.non2xx} | ceiling ${c.rps} req/s | ratio ${(r.rps / c.rps).toFixed(2)}`);
  };

  // 1. First start on an empty database: creates and loads the demo shop.
  const first = await startProcess(serverArgs, env('demo.db', true), 3101, '/readyz');
  row('start-up, empty database + demo seed (ms)', String(first.startMs));
  const publicKey = /public key:\s+(\S+)/.exec(first.output())?.[1];
  if (!publicKey) throw new Error(`no demo key printed:\n${first.output()}`);
  await first.stop();
  // 2. Restart on the same file: the data is there, only the indexes load.
  const demo = await startProcess(serverArgs, env('demo.db', true), 3101, '/readyz');
  row('start-up, demo shop already stored (ms)', String(demo.startMs));
  row('RSS with the demo shop loaded (MB)', String(demo.rssMb()));

  // 3. Throughput on the demo shop (1,000 products): custom with five rules, static with ten products.
  const page = await admin(demo.url, 'GET', '/admin/v1/shops/demo/products?limit=250');
  const ids = (page.data as { id: number; status: string; published_at: string | null; tags: string }[])
    .filter((p) => p.status === 'active' && p.published_at !== null && !p.tags.includes('exclude_rebound')).map((p) => p.id);
  const ruleset = await admin(demo.url, 'POST', '/admin/v1/shops/demo/rulesets', benchRuleset(ids));
  const customUrl = `${demo.url}/api/v1/custom/id/${ruleset.ruleset.id}?key=${publicKey}&shop_product_ids=${ids[0]}&cart_subtotal=80.00&cart_item_count=2&limit=10`;
  console.log(`\n${SECONDS} s per side in ${ROUNDS} alternating rounds, 10 connections; each ceiling is a bare node:http server sending that answer's bytes from a Buffer`);
  await measure('custom_cached', customUrl);
  await measure('custom_uncached', `${customUrl}&bust_cache=yes`);
  const trendingUrl = `${demo.url}/api/v1/products/trending_products?key=${publicKey}&limit=10`;
  await measure('trending', trendingUrl);
  await measure('trending_uncached', `${trendingUrl}&bust_cache=yes`);
  const collections = await admin(demo.url, 'GET', '/admin/v1/shops/demo/collections');
  const collectionsUrl = `${demo.url}/api/v1/products/collections?key=${publicKey}&shop_collection_ids=${collections.data[0].id}&smart_sort=yes&limit=10`;
  await measure('collections', collectionsUrl);
  await measure('collections_uncached', `${collectionsUrl}&bust_cache=yes`);
  const staticUrl = `${demo.url}/api/v1/products/static?key=${publicKey}&ids=${ids.slice(20, 40).join(',')}&limit=10&filter_oos=no`;
  await measure('static_cached', staticUrl);
  await measure('static_uncached', `${staticUrl}&bust_cache=yes`);
  const demoRss = demo.rssMb();
  await demo.stop();

  // 4. Import 10,000 products into a new shop, 1,000 per request.
  const server = await startProcess(serverArgs, env('bench.db', false), 3102, '/readyz');
  await admin(server.url, 'POST', '/admin/v1/shops', { handle: 'bench', name: 'Bench', scopes: ['read_markets'] });
  const data = generateDemoShop({ seed: 7, productCount: 10_000, publicUrl: server.url });
  const importStart = performance.now();
  for (let i = 0; i < data.products.length; i += 1000) {
    await admin(server.url, 'PUT', '/admin/v1/shops/bench/products', data.products.slice(i, i + 1000));
  }
  const importMs = Math.round(performance.now() - importStart);
  row('import 10,000 products, 1,000 per request (ms)', String(importMs));
  row('RSS with 10,000 products loaded (MB)', String(server.rssMb()));
  await server.stop();
  const restarted = await startProcess(serverArgs, env('bench.db', false), 3102, '/readyz');
  row('start-up with 10,000 products stored (ms)', String(restarted.startMs));
  row('RSS after that start (MB)', String(restarted.rssMb()));
  const rss10k = restarted.rssMb();
  await restarted.stop();

  rmSync(work, { recursive: true, force: true });
  const ratio = (name: string) => Number((results[name]!.rps / results[`${name}_ceiling`]!.rps).toFixed(3));
  console.log(JSON.stringify({
    ceiling_rps: results.custom_cached_ceiling!.rps,
    custom_cached_rps: results.custom_cached!.rps,
    custom_uncached_rps: results.custom_uncached!.rps,
    trending_rps: results.trending!.rps,
    trending_uncached_rps: results.trending_uncached!.rps,
    collections_rps: results.collections!.rps,
    collections_uncached_rps: results.collections_uncached!.rps,
    static_cached_rps: results.static_cached!.rps,
    static_uncached_rps: results.static_uncached!.rps,
    p99_ms: Math.max(results.custom_cached!.p99Ms, results.custom_uncached!.p99Ms, results.static_cached!.p99Ms),
    rss_mb: demoRss,
    rss_10k_mb: rss10k,
    startup_demo_seed_ms: first.startMs,
    startup_demo_ms: demo.startMs,
    startup_10k_ms: restarted.startMs,
    import_10k_products_ms: importMs,
    ratios: {
      custom_cached: ratio('custom_cached'), custom_uncached: ratio('custom_uncached'), trending: ratio('trending'), trending_uncached: ratio('trending_uncached'),
      collections: ratio('collections'), collections_uncached: ratio('collections_uncached'), static_cached: ratio('static_cached'), static_uncached: ratio('static_uncached'),
    },
  }));
}

main().catch((error: unknown) => {
  console.error(error);
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
});
