/**
 * `npm run bench:model`: the per-shop model of a 10,000-product shop with 100,000 order lines (seeded,
 * deterministic), on the built server: build time (first and rebuild), the model's memory (the index's
 * estimate and a measured heap difference), the worker thread's overhead (an empty task's round trip
 * against an inline call), and p50/p99 of model lists, cached and uncached, with no build running and
 * while a rebuild runs, in alternating rounds. The last line printed is one JSON object with every figure.
 */
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { generateDemoShop } from '../demo/generate.js';
import { Random } from '../demo/random.js';
import { liveBytes } from './lib/live-memory.js';
import { ROOT, startProcess } from './lib/processes.js';

const PRODUCTS = 10_000;
const ORDER_LINES = 100_000;
const CUSTOMERS = 5_000;
const DAYS = 365;
const NOW = Date.parse('2026-01-01T00:00:00Z');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const TOKEN = 'bench-operator-token-0123456789abcdef';
const DAY_MS = 86_400_000;

interface OrderDoc {
  id: number;
  created_at: string;
  customer: { id: number };
  line_items: { product_id: number; variant_id: number; quantity: number; price: string }[];
}

/**
 * Orders of 1–7 lines: a skewed choice of a first product, the others mostly from its "aisle" of 25
 * neighbouring products (so products have real neighbours), a few anywhere. Exactly ORDER_LINES lines.
 */
function generateOrders(products: { id: number; variants: { id: number; price: string }[] }[]): OrderDoc[] {
  const rng = new Random(20260101);
  const skewed = () => Math.floor(products.length * rng.next() ** 2.2);
  const orders: OrderDoc[] = [];
  let lines = 0;
  for (let id = 1; lines < ORDER_LINES; id++) {
    const size = Math.min(rng.int(1, 7), ORDER_LINES - lines);
    const first = skewed();
    const picked = new Set([first]);
    while (picked.size < size) {
      const aisle = Math.floor(first / 25) * 25;
      picked.add(rng.chance(0.8) ? Math.min(products.length - 1, aisle + rng.int(0, 24)) : skewed());
    }
    lines += picked.size;
    orders.push({
      id,
      created_at: new Date(NOW - Math.floor(rng.next() * DAYS * DAY_MS)).toISOString().replace(/\.\d+Z$/, 'Z'),
      customer: { id: 1 + Math.floor(CUSTOMERS * rng.next() ** 1.5) },
      line_items: [...picked].map((i) => {
        const variant = products[i]!.variants[0]!;
        return { product_id: products[i]!.id, variant_id: variant.id, quantity: rng.int(1, 3), price: variant.price };
      }),
    });
  }
  return orders;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function timeCalls(n: number, call: () => Promise<unknown>): Promise<{ p50Us: number; meanUs: number }> {
  for (let i = 0; i < 50; i++) await call(); // warm up (the worker starts on first use)
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = process.hrtime.bigint();
    await call();
    times.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  times.sort((a, b) => a - b);
  return {
    p50Us: Math.round(percentile(times, 0.5) * 10) / 10,
    meanUs: Math.round((times.reduce((s, t) => s + t, 0) / n) * 10) / 10,
  };
}

interface Latency {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(url: string): Promise<Latency> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
  };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'rebound-model-bench-'));
  const started = performance.now();
  const server = await startProcess(
    ['dist/src/cli/main.js', 'serve'],
    {
      DATABASE_URL: `sqlite:${join(work, 'model.db')}`,
      REBOUND_ADMIN_TOKEN: TOKEN,
      LOG_LEVEL: 'warn',
      REBOUND_DEMO: 'false',
      HOST: '127.0.0.1',
      // A change starts a rebuild at once: the order loop below keeps a build running.
      REBOUND_MODEL_INTERVAL_S: '0',
    },
    0,
    '/readyz',
  );
  const admin = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${server.url}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 1000)}`);
    return res.json();
  };
  const rows: [string, string][] = [];
  const row = (name: string, value: string) => {
    rows.push([name, value]);
    console.log(`${name.padEnd(58)} ${value}`);
  };
  try {
    const data = generateDemoShop({ seed: 7, productCount: PRODUCTS, now: new Date(NOW), publicUrl: server.url });
    const orders = generateOrders(data.products as never);
    const created = await admin('POST', '/shops', { handle: 'model', name: 'Model bench' });
    const key = created.keys.public as string;
    await admin('PATCH', '/shops/model', { settings: { rate_limit_public_per_minute: 100_000_000 } });
    for (let i = 0; i < data.products.length; i += 1000)
      await admin('PUT', '/shops/model/products', data.products.slice(i, i + 1000));
    const importStarted = performance.now();
    for (let i = 0; i < orders.length; i += 2000) await admin('PUT', '/shops/model/orders', orders.slice(i, i + 2000));
    row(
      `import ${orders.length} orders, ${ORDER_LINES} lines (ms)`,
      String(Math.round(performance.now() - importStarted)),
    );

    // 1. Build times: the first build (started by the status request), then a rebuild after one more order.
    const status = async () => (await admin('GET', '/shops/model/models/status')).data as Record<string, any> | null;
    const waitFor = async (done: (s: Record<string, any>) => boolean) => {
      for (;;) {
        const s = await status();
        if (s && done(s)) return s;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const firstWall = performance.now();
    const first = await waitFor(() => true);
    const firstWallMs = Math.round(performance.now() - firstWall);
    row('first build: in the worker (ms) | wall, request to served', `${first.build_ms} | ${firstWallMs}`);
    let nextOrder = orders.length + 1;
    const oneOrder = (i: number): OrderDoc => ({
      ...orders[i % orders.length]!,
      id: nextOrder++,
      created_at: new Date(NOW).toISOString().replace(/\.\d+Z$/, 'Z'),
    });
    const rebuildWall = performance.now();
    await admin('PUT', '/shops/model/orders', [oneOrder(0)]);
    const rebuilt = await waitFor((s) => s.stamp !== first.stamp);
    const rebuildWallMs = Math.round(performance.now() - rebuildWall);
    row('rebuild after one order: in the worker (ms) | wall', `${rebuilt.build_ms} | ${rebuildWallMs}`);
    row(
      'model: products | neighbour entries | customers | lines',
      `${rebuilt.products} | ${rebuilt.neighbours} | ${rebuilt.customers} | ${rebuilt.order_lines}`,
    );

    // 2. Memory: the index's estimate (typed arrays' bytes) against a heap difference measured here, same lines.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { buildModel } = await import(join(ROOT, 'dist/src/domain/models/build.js'));
    const { modelBytes } = await import(join(ROOT, 'dist/src/domain/models/rank.js'));
    const lines = orders.flatMap((o) =>
      o.line_items.map((l) => ({
        orderId: o.id,
        productId: l.product_id,
        customerId: o.customer.id,
        createdAt: Date.parse(o.created_at),
      })),
    );
    const before = await liveBytes(gc);
    const inlineStarted = performance.now();
    const model = buildModel(lines, [], {
      similarity: 'weighted',
      threshold: 1,
      basis: 'order',
      affinityHalfLifeDays: 180,
    });
    const inlineMs = Math.round(performance.now() - inlineStarted);
    const measuredBytes = (await liveBytes(gc)) - before;
    const estimate = modelBytes(model) as number;
    const denseBytes = model.products.length ** 2 * 4;
    row('same lines built inline, no database read (ms)', String(inlineMs));
    row('model bytes: estimate (purchases only) | measured heap', `${estimate} | ${measuredBytes}`);
    row('served model bytes (status, with views and content)', String(rebuilt.bytes));
    row('a dense float32 products × products matrix would be', `${denseBytes} bytes`);

    // 2b. Where a build's time goes: the worker's steps, run here one by one on the same database.
    const { openStore } = await import(join(ROOT, 'dist/src/store/open.js'));
    const { buildContentModel, contentItemOf } = await import(join(ROOT, 'dist/src/domain/models/content.js'));
    const store = await openStore(`sqlite:${join(work, 'model.db')}`, { migrate: false });
    const shopId = (await store.getShopByHandle('model')).id as number;
    const timed = async <T>(f: () => Promise<T> | T): Promise<[T, number]> => {
      const t = performance.now();
      const value = await f();
      return [value, Math.round(performance.now() - t)];
    };
    const [stored, readLinesMs] = await timed(() => store.listOrderLines(shopId, 0));
    const [, readViewsMs] = await timed(() => store.listRecentViews(shopId, 1_000_000));
    const [, purchasesMs] = await timed(() =>
      buildModel(
        (stored as any[]).map((l) => ({
          orderId: l.order_id,
          productId: l.product_id,
          customerId: l.customer_id,
          createdAt: l.created_at,
        })),
        [],
      ),
    );
    const [items, readProductsMs] = await timed(async () => {
      const out: unknown[] = [];
      for (let afterId = 0; ; ) {
        const page = await store.listProducts(shopId, { afterId, limit: 500 });
        for (const product of page) out.push(contentItemOf(product));
        if (page.length < 500) return out;
        afterId = page[page.length - 1].id;
      }
    });
    const [, contentMs] = await timed(() => buildContentModel(items));
    await store.close();
    const phases = {
      read_lines_ms: readLinesMs,
      read_views_ms: readViewsMs,
      purchases_ms: purchasesMs,
      read_products_ms: readProductsMs,
      content_ms: contentMs,
    };
    row(
      'build steps here: read lines | views | purchase model (ms)',
      `${readLinesMs} | ${readViewsMs} | ${purchasesMs}`,
    );
    row('build steps here: read products | content neighbours (ms)', `${readProductsMs} | ${contentMs}`);

    // 3. The worker thread's overhead: an empty task through piscina against the same function called inline.
    const { ModelPool } = await import(join(ROOT, 'dist/src/jobs/model-pool.js'));
    const { default: runTask } = await import(join(ROOT, 'dist/src/jobs/model-worker.js'));
    const pool = new ModelPool(`sqlite:${join(work, 'unused.db')}`);
    const viaPool = await timeCalls(2000, () => pool.ping());
    const inline = await timeCalls(2000, () => runTask({ kind: 'ping' }));
    await pool.close();
    row('empty task: piscina round trip p50 | mean (µs)', `${viaPool.p50Us} | ${viaPool.meanUs}`);
    row('empty task: inline call p50 | mean (µs)', `${inline.p50Us} | ${inline.meanUs}`);

    // 4. Latency with no build, then while builds run back to back.
    const ruleset = await admin('POST', '/shops/model/rulesets', {
      name: 'model lists',
      rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/recommended' }] }],
    });
    const buyer = orders[0]!.customer.id;
    const anchor = orders[0]!.line_items[0]!.product_id;
    const base = `${server.url}/api/v1`;
    const lists: Record<string, string> = {
      recommended: `${base}/products/recommended?key=${key}&shop_product_ids=${anchor}&limit=10`,
      for_you: `${base}/products/for_you?key=${key}&shop_customer_id=${buyer}&limit=10`,
      custom: `${base}/custom/id/${ruleset.ruleset.id}?key=${key}&shop_product_ids=${anchor}&limit=10`,
    };
    for (const url of Object.values(lists)) {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    }
    const scenarios = Object.entries(lists).flatMap(([name, url]) => [
      [`${name}_cached`, url],
      [`${name}_uncached`, `${url}&bust_cache=yes`],
    ]);
    // Rounds alternate, so both sides see the same background load: every scenario with no build
    // running (the last one finished), then every scenario while one runs (an order posted starts it;
    // the window counts only if the build is still running at its end).
    const idleRuns: Record<string, Latency[]> = {};
    const buildRuns: Record<string, Latency[]> = {};
    let covered = 0;
    let windows = 0;
    let stamp = (await status())!.stamp as string;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, url] of scenarios) {
        const runs = idleRuns[name!] ?? [];
        idleRuns[name!] = runs;
        runs.push(await measure(url!));
      }
      await admin('PUT', '/shops/model/orders', [oneOrder(nextOrder)]);
      for (const [name, url] of scenarios) {
        const result = await measure(url!);
        windows++;
        if ((await status())!.stamp === stamp) {
          covered++;
          const runs = buildRuns[name!] ?? [];
          buildRuns[name!] = runs;
          runs.push(result);
        }
      }
      stamp = (await waitFor((s) => s.stamp !== stamp)).stamp;
    }
    const combine = (runs: Latency[] = []): Latency => ({
      rps: Math.round(runs.reduce((sum, r) => sum + r.rps, 0) / Math.max(1, runs.length)),
      p50: Math.round((runs.reduce((sum, r) => sum + r.p50, 0) / Math.max(1, runs.length)) * 10) / 10,
      p99: Math.max(0, ...runs.map((r) => r.p99)),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
    });
    const idle = Object.fromEntries(scenarios.map(([name]) => [name!, combine(idleRuns[name!])]));
    const building = Object.fromEntries(
      scenarios.map(([name]) => [name!, { ...combine(buildRuns[name!]), windows: buildRuns[name!]?.length ?? 0 }]),
    );
    const builds = ROUNDS;
    const lastBuildMs = (await status())!.build_ms;

    console.log(
      `\n${ROUNDS} alternating rounds of ${SECONDS} s per scenario and side, ${CONNECTIONS} connections; req/s and ` +
        `p50 the mean, p99 the worst round; ${covered} of ${windows} build windows had a build running throughout`,
    );
    console.log(
      `${'scenario'.padEnd(22)} ${'no build: req/s  p50  p99'.padStart(30)}   ` +
        `${'during a build: req/s  p50  p99  rounds'.padStart(40)}`,
    );
    for (const [name] of scenarios) {
      const a = idle[name!]!;
      const b = building[name!]!;
      console.log(
        `${name!.padEnd(22)} ${String(a.rps).padStart(16)} ${String(a.p50).padStart(4)} ` +
          `${String(a.p99).padStart(4)}   ${String(b.rps).padStart(24)} ${String(b.p50).padStart(4)} ` +
          `${String(b.p99).padStart(4)} ${String(b.windows).padStart(6)}`,
      );
    }
    const worstBuilding = Math.max(...Object.values(building).map((l) => l.p99));
    const load = loadavg().map((l) => Number(l.toFixed(2)));
    console.log(
      `\nworst p99 during builds ${worstBuilding} ms (target < 20 ms); builds during the ` +
        `load ${builds}, the last took ${lastBuildMs} ms; load average ${load.join(' ')}`,
    );
    console.log(
      JSON.stringify({
        products: PRODUCTS,
        order_lines: ORDER_LINES,
        orders: orders.length,
        first_build_ms: first.build_ms,
        first_build_wall_ms: firstWallMs,
        rebuild_ms: rebuilt.build_ms,
        rebuild_wall_ms: rebuildWallMs,
        inline_build_ms: inlineMs,
        build_steps: phases,
        model_bytes_estimate: estimate,
        model_bytes_measured: measuredBytes,
        served_model_bytes: rebuilt.bytes,
        neighbour_entries: rebuilt.neighbours,
        dense_matrix_bytes: denseBytes,
        worker_round_trip_us: viaPool,
        inline_call_us: inline,
        no_build: idle,
        during_builds: building,
        builds_during_load: builds,
        build_windows_covered: `${covered}/${windows}`,
        worst_p99_during_builds_ms: worstBuilding,
        load_average: load,
        total_ms: Math.round(performance.now() - started),
      }),
    );
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
