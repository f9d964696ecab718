/**
 * `npm run bench`: start-up, import, memory and throughput of the built server, each next to
 * a bare node:http server sending the same bytes under the same header lines, measured in the
 * same run on this machine.
 * The last line printed is one JSON object with every figure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoShop } from '../demo/generate.js';
import { rawGet, startCeiling } from './lib/ceiling.js';
import { CONNECTIONS, LOADER, load, loadSeconds, THREADS, type LoadResult } from './lib/load.js';
import { startFlags, startProcess } from './lib/processes.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = 4;
/**
 * BENCH_WARMUP_SECONDS: unrecorded load on each scenario (server and ceiling) before its rounds. Without it the
 * first scenario measured carries the server's warm-up (code still being optimized, the start-up heap collected):
 * its first round's CPU a request was three times the later rounds', whichever scenario came first.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);

function mean(runs: LoadResult[]): LoadResult {
  const avg = (f: (r: LoadResult) => number) => Math.round(runs.reduce((sum, r) => sum + f(r), 0) / runs.length);
  return {
    rps: avg((r) => r.rps),
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    errors: avg((r) => r.errors),
    non2xx: avg((r) => r.non2xx),
  };
}
const TOKEN = 'bench-operator-token-0123456789abcdef';
const work = mkdtempSync(join(tmpdir(), 'rebound-bench-'));
/**
 * BENCH_SERVER: another checkout's built server (e.g. an earlier commit's) under the same load and data; this
 * one by default. It runs with its start script's node flags and BENCH_NODE_FLAGS (e.g. `--cpu-prof
 * --cpu-prof-dir=<dir>` for a profile of each server started).
 */
const SERVER_DIR = process.env.BENCH_SERVER ?? '.';
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
const serverArgs = [...startFlags(SERVER_DIR), ...NODE_FLAGS, join(SERVER_DIR, 'dist/src/cli/main.js'), 'serve'];
/** BENCH_ONLY: a comma-separated subset of the scenarios below (e.g. `recommended`). */
const only = process.env.BENCH_ONLY?.split(',');
const env = (db: string, demo: boolean) => ({
  DATABASE_URL: `sqlite:${join(work, db)}`,
  REBOUND_ADMIN_TOKEN: TOKEN,
  LOG_LEVEL: 'warn',
  REBOUND_DEMO: String(demo),
  HOST: '127.0.0.1',
  // Ratios are per process: one worker unless BENCH_WORKERS says otherwise (the workers scenario runs two).
  REBOUND_WORKERS: process.env.BENCH_WORKERS ?? '1',
});

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
      {
        name: 'upsell',
        logic: [{ rules: [{ type: 'product', operator: 'contains_any', products: [{ product_id: anchor }] }] }],
        output: [{ type: 'product', products: rest.slice(0, 4).map((id) => ({ product_id: id })) }],
      },
      {
        name: 'big cart',
        logic: [{ rules: [{ type: 'cart_subtotal', operator: 'greater_than', value: '500' }] }],
        output: [{ type: 'tag', value: 'gift' }],
        exit_if_matched: true,
      },
      {
        name: 'vip',
        logic: [{ rules: [{ type: 'customer_tag', operator: 'contains_any', value: 'vip' }] }],
        output: [{ type: 'tag', value: 'new' }],
      },
      {
        name: 'any day',
        logic: [
          {
            rules: [
              { type: 'day_of_week', operator: 'contains_any', value: 'mon,tue,wed,thu,fri,sat,sun' },
              { type: 'cart_item_count', operator: 'less_than', value: '10' },
            ],
          },
        ],
        output: [{ type: 'tag', value: 'bestseller' }],
      },
      {
        name: 'fallback',
        logic: [],
        output: [{ type: 'endpoint', endpoint: `/products/static?ids=${rest.slice(4, 14).join(',')}` }],
      },
    ],
  };
}

async function main() {
  const rows: [string, string][] = [];
  const row = (name: string, value: string) => {
    rows.push([name, value]);
    console.log(`${name.padEnd(48)} ${value}`);
  };
  const results: Record<string, LoadResult> = {};
  /**
   * Measures an endpoint against a bare node:http server sending its exact bytes and header lines. The machine is
   * noisy, so the two alternate in short rounds and each figure is the mean over the rounds.
   */
  const measure = async (name: string, url: string) => {
    // As autocannon asks (no Accept-Encoding), twice: a cached scenario is measured on its hits.
    await rawGet(url);
    const probe = await rawGet(url);
    if (probe.status !== 200) throw new Error(`${url}: ${probe.status} ${probe.body}`);
    const { body } = probe;
    const ceiling = await startCeiling(work, [{ name, prefix: '/', answer: probe }]);
    const target: LoadResult[] = [];
    const bare: LoadResult[] = [];
    if (WARMUP_SECONDS > 0) {
      await load(url, { seconds: WARMUP_SECONDS });
      await load(`${ceiling.url}/`, { seconds: WARMUP_SECONDS });
    }
    for (let round = 0; round < ROUNDS; round++) {
      target.push(await load(url, { seconds: SECONDS / ROUNDS }));
      bare.push(await load(`${ceiling.url}/`, { seconds: SECONDS / ROUNDS }));
    }
    await ceiling.stop();
    const r = mean(target);
    const c = mean(bare);
    results[name] = r;
    results[`${name}_ceiling`] = c;
    row(
      `${name} (${body.length} B)`,
      `${r.rps} req/s, p99 ${r.p99Ms} ms, errors ${r.errors + r.non2xx} | ceiling ${c.rps} req/s | ` +
        `ratio ${(r.rps / c.rps).toFixed(2)}`,
    );
  };

  // 1. The demo shop: first start on an empty database (seeding it), then a restart.
  const first = await startProcess(serverArgs, env('demo.db', true), 0, '/readyz');
  row('start-up, empty database + demo seed (ms)', String(first.startMs));
  await first.stop();
  const demo = await startProcess(serverArgs, env('demo.db', true), 0, '/readyz');
  row('start-up, demo shop (1,000 products) stored (ms)', String(demo.startMs));
  row('RSS with the demo shop loaded (MB)', String(demo.rssMb()));
  await demo.stop();

  // 2. A generated shop of 10,000 products with collections, markets, customers, orders, a ruleset and events.
  const loader = await startProcess(serverArgs, env('bench.db', false), 0, '/readyz');
  const created = await admin(loader.url, 'POST', '/admin/v1/shops', {
    handle: 'bench',
    name: 'Bench',
    scopes: ['read_markets'],
  });
  const publicKey = created.keys.public as string;
  // The load comes from one address: lift the per-visitor limit meant for storefronts.
  await admin(loader.url, 'PATCH', '/admin/v1/shops/bench', {
    settings: { rate_limit_public_per_minute: 100_000_000 },
  });
  const data = generateDemoShop({ seed: 7, productCount: 10_000, publicUrl: loader.url });
  const importStart = performance.now();
  for (let i = 0; i < data.products.length; i += 1000)
    await admin(loader.url, 'PUT', '/admin/v1/shops/bench/products', data.products.slice(i, i + 1000));
  const importMs = Math.round(performance.now() - importStart);
  row('import 10,000 products, 1,000 per request (ms)', String(importMs));
  for (const [path, rows] of [
    ['collections', data.collections],
    ['markets', data.markets],
    ['customers', data.customers],
    ['orders', data.orders],
  ] as const) {
    await admin(loader.url, 'PUT', `/admin/v1/shops/bench/${path}`, rows);
  }
  const ids = data.products
    .filter((p) => p.status !== 'draft' && p.published_at !== null && !String(p.tags).includes('exclude_rebound'))
    .map((p) => p.id);
  const ruleset = await admin(loader.url, 'POST', '/admin/v1/shops/bench/rulesets', benchRuleset(ids));
  await postEvents(
    loader.url,
    publicKey,
    data.products.slice(0, 500).map((p) => p.handle),
    2000,
  );
  row('RSS right after the import (MB)', String(loader.rssMb()));
  await loader.stop();

  const server = await startProcess(serverArgs, env('bench.db', false), 0, '/readyz');
  row('start-up with the 10,000-product shop stored (ms)', String(server.startMs));
  row('RSS after that start (MB)', String(server.rssMb()));

  // Wait for the model build started at start-up: no list is measured on its fallback, and its landing (a
  // new answer version, a thread's result read in) does not fall inside the first scenario measured.
  const status = await fetch(`${server.url}/admin/v1/shops/bench/models/status`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  if (status.ok) {
    let model = ((await status.json()) as { data: unknown }).data;
    while (!model) {
      await new Promise((r) => setTimeout(r, 100));
      model = (await admin(server.url, 'GET', '/admin/v1/shops/bench/models/status')).data;
    }
  }
  console.log(
    `\n${loadSeconds(SECONDS / ROUNDS) * ROUNDS} s per side in ${ROUNDS} alternating rounds, ` +
      `${CONNECTIONS} connections from ${LOADER}${THREADS > 1 ? ` (${THREADS} threads)` : ''}; ` +
      "each ceiling is a bare node:http server sending that answer's bytes and header lines",
  );
  const base = `${server.url}/api/v1`;
  const customUrl =
    `${base}/custom/id/${ruleset.ruleset.id}?key=${publicKey}&shop_product_ids=${ids[0]}` +
    '&cart_subtotal=80.00&cart_item_count=2&limit=10';
  const collectionsList = await admin(server.url, 'GET', '/admin/v1/shops/bench/collections');
  const allUrls: Record<string, string> = {
    custom: customUrl,
    trending: `${base}/products/trending_products?key=${publicKey}&limit=10`,
    collections:
      `${base}/products/collections?key=${publicKey}&shop_collection_ids=${collectionsList.data[0].id}` +
      '&smart_sort=yes&limit=10',
    static: `${base}/products/static?key=${publicKey}&ids=${ids.slice(20, 40).join(',')}&limit=10&filter_oos=no`,
  };
  const urls = Object.fromEntries(Object.entries(allUrls).filter(([name]) => !only || only.includes(name)));
  for (const [name, url] of Object.entries(urls)) {
    await measure(`${name}_cached`, url);
    await measure(`${name}_uncached`, `${url}&bust_cache=yes`);
  }

  // The model's lists, uncached (each request recomputed): recommended, and the lists added beside it.
  const buyer = data.orders.find((o) => o.customer)!.customer!.id;
  const session = SESSIONS[0]!;
  const personal = await admin(server.url, 'POST', '/admin/v1/shops/bench/rulesets', {
    name: 'Bench: viewed',
    rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/viewed' }] }],
  }).catch(() => null);
  const recent = await admin(server.url, 'POST', '/admin/v1/shops/bench/rulesets', {
    name: 'Bench: recently viewed',
    rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/recently_viewed' }] }],
  }).catch(() => null);
  const allLists: Record<string, string | null> = {
    recommended: `${base}/products/recommended?key=${publicKey}&shop_product_ids=${ids[0]}&limit=10`,
    for_you: `${base}/products/for_you?key=${publicKey}&shop_customer_id=${buyer}&limit=10`,
    viewed_together:
      `${base}/products/viewed_together?key=${publicKey}` + `&shop_product_ids=${data.products[0]!.id}&limit=10`,
    viewed_output: personal && `${base}/custom/id/${personal.ruleset.id}?key=${publicKey}&uuid=${session}&limit=10`,
    recently_viewed_output:
      recent && `${base}/custom/id/${recent.ruleset.id}?key=${publicKey}&uuid=${session}&limit=10`,
  };
  const lists = Object.entries(allLists).filter(([name, url]) => url && (!only || only.includes(name)));
  for (const [name, url] of lists) await measure(`${name}_uncached`, `${url}&bust_cache=yes`);
  const rss = server.rssMb();
  row('RSS at the end of the load (MB)', String(rss));
  // 3. Every core: one shop's trending answer, cached and computed, from a node of two worker processes (routing
  // by key, and sharing the port) against one, in alternating rounds. One shop has one key: routed, all of it goes
  // to one worker, so the second core can only show when the port is shared.
  // The bare server's own 1 → 2 processes, in the same rounds: with the load generator on the same cores, what a
  // second process can add at all on this machine.
  type Pair = { one: LoadResult; two: LoadResult; ratio: number };
  let workers: Record<string, Pair & { ceiling: Pair }> | null = null;
  if (!only || only.includes('workers')) {
    workers = {};
    const path = allUrls.trending!.slice(server.url.length);
    const bare = async (suffix: string, count: number) =>
      startCeiling(
        work,
        [{ name: `trending${count}`, prefix: '/', answer: await rawGet(`${server.url}${path}${suffix}`) }],
        count,
      );
    for (const routing of ['true', 'false']) {
      const pair = await startProcess(
        serverArgs,
        { ...env('bench.db', false), REBOUND_WORKERS: '2', REBOUND_KEY_ROUTING: routing },
        0,
        '/readyz',
      );
      await warmWorkers(pair.url, path);
      for (const [name, suffix] of [
        ['cached', ''],
        ['computed', '&bust_cache=yes'],
      ] as const) {
        const ceilings = [await bare(suffix, 1), await bare(suffix, 2)] as const;
        const runs: LoadResult[][] = [[], [], [], []];
        const targets = [
          `${server.url}${path}${suffix}`,
          `${pair.url}${path}${suffix}`,
          ...ceilings.map((c) => `${c.url}/`),
        ];
        if (WARMUP_SECONDS > 0) for (const url of targets) await load(url, { seconds: WARMUP_SECONDS });
        for (let round = 0; round < ROUNDS; round++)
          for (const [i, url] of targets.entries()) runs[i]!.push(await load(url, { seconds: SECONDS / ROUNDS }));
        for (const ceiling of ceilings) await ceiling.stop();
        const pairOf = (a: LoadResult[], b: LoadResult[]): Pair => ({
          one: mean(a),
          two: mean(b),
          ratio: Number((mean(b).rps / mean(a).rps).toFixed(2)),
        });
        const figures = { ...pairOf(runs[0]!, runs[1]!), ceiling: pairOf(runs[2]!, runs[3]!) };
        const label = `trending ${name}, routing ${routing === 'true' ? 'on' : 'off'}`;
        workers[label] = figures;
        const { one: a, two: b, ceiling: c } = figures;
        row(
          `${label}: 1 → 2 workers (req/s)`,
          `${a.rps} → ${b.rps} (×${figures.ratio}), p99 ${a.p99Ms} / ${b.p99Ms} ms | ` +
            `bare server 1 → 2 processes ${c.one.rps} → ${c.two.rps} (×${c.ratio})`,
        );
      }
      await pair.stop();
    }
  }
  await server.stop();

  rmSync(work, { recursive: true, force: true });
  const ratio = (name: string) => Number((results[name]!.rps / results[`${name}_ceiling`]!.rps).toFixed(3));
  const listFigures = Object.fromEntries(
    lists.map(([name]) => [
      `${name}_uncached`,
      {
        rps: results[`${name}_uncached`]!.rps,
        p99_ms: results[`${name}_uncached`]!.p99Ms,
        ratio: ratio(`${name}_uncached`),
      },
    ]),
  );
  if (only) {
    console.log(
      JSON.stringify({
        only,
        server: SERVER_DIR,
        loader: LOADER,
        threads: THREADS,
        connections: CONNECTIONS,
        lists: listFigures,
        results,
        workers,
      }),
    );
    return;
  }
  const p99 = Math.max(
    ...Object.keys(urls).flatMap((n) => [results[`${n}_cached`]!.p99Ms, results[`${n}_uncached`]!.p99Ms]),
  );
  console.log(
    JSON.stringify({
      loader: LOADER,
      threads: THREADS,
      connections: CONNECTIONS,
      ceiling_rps: results.custom_cached_ceiling!.rps,
      custom_cached_rps: results.custom_cached!.rps,
      custom_uncached_rps: results.custom_uncached!.rps,
      trending_rps: results.trending_cached!.rps,
      collections_rps: results.collections_cached!.rps,
      p99_ms: p99,
      rss_mb: rss,
      workers,
      ratios: {
        custom_cached: ratio('custom_cached'),
        custom_uncached: ratio('custom_uncached'),
        trending: ratio('trending_cached'),
        collections: ratio('collections_cached'),
      },
      extra: {
        trending_uncached_rps: results.trending_uncached!.rps,
        collections_uncached_rps: results.collections_uncached!.rps,
        static_cached_rps: results.static_cached!.rps,
        static_uncached_rps: results.static_uncached!.rps,
        ratios: {
          trending_uncached: ratio('trending_uncached'),
          collections_uncached: ratio('collections_uncached'),
          static_cached: ratio('static_cached'),
          static_uncached: ratio('static_uncached'),
        },
        model_lists: listFigures,
        startup_demo_seed_ms: first.startMs,
        startup_demo_ms: demo.startMs,
        startup_10k_ms: server.startMs,
        import_10k_products_ms: importMs,
      },
    }),
  );
}

/**
 * Makes the shop resident in every worker of a node and waits for each worker's model of it: each
 * worker loads and builds on its own, and the measured rounds should not include that.
 */
async function warmWorkers(base: string, path: string): Promise<void> {
  // A new connection per request: the cluster hands connections to the workers in turn.
  const headers = { authorization: `Bearer ${TOKEN}`, connection: 'close' };
  for (let i = 0; i < 8; i++) await (await fetch(`${base}${path}`, { headers })).arrayBuffer();
  const deadline = Date.now() + 180_000;
  for (let built = 0; built < 8 && Date.now() < deadline; ) {
    const status = await fetch(`${base}/admin/v1/shops/bench/models/status`, { headers });
    if (!status.ok || !((await status.json()) as { data: unknown }).data) {
      built = 0;
      await new Promise((r) => setTimeout(r, 250));
    } else built++;
  }
}

const SESSIONS = Array.from({ length: 50 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

/** Posts product views through the public intake, a few at a time. */
async function postEvents(base: string, key: string, handles: string[], count: number): Promise<void> {
  for (let i = 0; i < count; i += 20) {
    await Promise.all(
      Array.from({ length: 20 }, (_, j) =>
        fetch(
          `${base}/api/v1/analytics/event?key=${key}&subject=user&verb=viewed&noun=product` +
            `&shop_product_handle=${handles[(i + j) % handles.length]}&uuid=${SESSIONS[(i + j) % SESSIONS.length]}`,
          { method: 'POST' },
        ),
      ),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
});
