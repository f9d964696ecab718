/**
 * `npm run eval`: recommendation quality on the UCI Online Retail data, through the public HTTP API
 * of the built server, next to baselines computed here from the same training orders.
 * The last line printed is one JSON object with every figure.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoOccurrence, coPurchaseSweep, fill, popularity, purchasesByCustomer } from './eval/baselines.js';
import { K, sample, scoreShared, Tally, type Score } from './eval/metrics.js';
import { DAY_MS, isoSeconds, loadRetail, orderDocument, productDocument, type Invoice } from './eval/retail.js';
import { createRuleset, getList, importBatches, mapPool, requestStats, startService, type ListAnswer, type Service } from './eval/service.js';
import { printCoPurchaseSweep, printTrendingSweep, trendingSweep } from './eval/sweeps.js';
import { ROOT } from './lib/processes.js';

const DATA_DIR = join(ROOT, '..', 'shared', 'data', 'online-retail');
const VALID_DAYS = 28;
const CUSTOMER_SAMPLE = 800;
const BASKET_SAMPLE = 1500;
const SEED = 20111031;
const BATCH = 2000;
const PORT = Number(process.env.EVAL_PORT ?? 3111);
const CONCURRENCY = 8;
const PURCHASED_THEN_TRENDING = {
  name: 'purchased then trending',
  filter_input_products: false,
  rules: [
    { logic: [{ rules: [{ type: 'customer', operator: 'is_logged_in' }] }], output: [{ type: 'endpoint', endpoint: '/products/purchased?limit=10' }] },
    { logic: [], output: [{ type: 'endpoint', endpoint: '/products/trending_products' }] },
  ],
};

type Row = { key: string; label: string; score: Score | null; note?: string };
const rows: Row[] = [];
const notes: string[] = [];
const add = (key: string, label: string, score: Score | null, note?: string) => rows.push({ key, label, score, ...(note ? { note } : {}) });
const fmt = (x: number) => x.toFixed(4);

/** Scores a service list fetched once per case; null (n/a) when the endpoint is not there. */
async function perCase<T>(cases: readonly T[], path: (c: T) => string, targets: (c: T) => ReadonlySet<number>): Promise<{ score: Score | null; note?: string }> {
  if (cases.length === 0) return { score: null, note: 'no cases' };
  const first = await getList(service!, path(cases[0]!));
  if (first.ids === null) return { score: null, note: first.note };
  const answers: ListAnswer[] = [first, ...await mapPool(cases.slice(1), CONCURRENCY, (c) => getList(service!, path(c)))];
  const tally = new Tally();
  let short = 0;
  cases.forEach((c, i) => {
    const ids = answers[i]!.ids ?? [];
    if (ids.length < K) short++;
    tally.add(ids, targets(c));
  });
  return { score: tally.score(), ...(short > 0 ? { note: `${short} answers had fewer than ${K} products` } : {}) };
}

let service: Service | null = null;

async function main() {
  const started = performance.now();
  const retail = await loadRetail(join(DATA_DIR, 'online_retail_train.csv.gz'), VALID_DAYS);
  const loadMs = Math.round(performance.now() - started);
  const { train, valid, cutoff } = retail;
  const serviceTime = train.reduce((max, o) => Math.max(max, o.at), 0);
  const lines = (orders: Invoice[]) => orders.reduce((sum, o) => sum + o.items.size, 0);
  console.log(`Online Retail: ${retail.rows} rows read in ${loadMs} ms; ${retail.products.length} products`);
  console.log(`training   ${train.length} orders, ${lines(train)} line items, ${isoSeconds(train[0]!.at)} … ${isoSeconds(serviceTime)}`);
  console.log(`validation ${valid.length} orders, ${lines(valid)} line items, ${isoSeconds(cutoff)} … ${isoSeconds(retail.lastAt)} (last ${VALID_DAYS} days)`);
  console.log(`service time = latest training order, ${isoSeconds(serviceTime)}: service windows and the baselines' 30- and 90-day windows end there\n`);

  const boughtBy = new Map<number, Set<number>>();
  for (const order of valid) {
    if (order.customer === null) continue;
    let set = boughtBy.get(order.customer);
    if (!set) boughtBy.set(order.customer, (set = new Set()));
    for (const id of order.items.keys()) set.add(id);
  }
  const customers = [...boughtBy.keys()].sort((a, b) => a - b);
  const customerTargets = customers.map((c) => boughtBy.get(c)!);
  const history = purchasesByCustomer(train);
  const known = sample(customers.filter((c) => history.has(c)), CUSTOMER_SAMPLE, SEED);
  const baskets = sample(valid.filter((o) => o.items.size >= 2).map((o) => {
    const [input, ...rest] = [...o.items.keys()];
    return { input: input!, targets: new Set(rest) };
  }), BASKET_SAMPLE, SEED);

  const popAll = popularity(train, K + 1);
  const pop30 = popularity(train, K, serviceTime - 30 * DAY_MS);
  add('customers_popularity_all', 'baseline: popularity, all training', scoreShared(popAll.slice(0, K), customerTargets));
  add('customers_popularity_30d', 'baseline: popularity, last 30 days', scoreShared(pop30, customerTargets));

  const work = mkdtempSync(join(tmpdir(), 'rebound-eval-'));
  try {
    service = await startService(work, PORT);
    const productsMs = await importBatches(service, 'products', retail.products.map(productDocument), BATCH);
    const ordersMs = await importBatches(service, 'orders', train.map(orderDocument), BATCH);
    const rssMb = service.running.rssMb();
    console.log(`import: ${retail.products.length} products in ${productsMs} ms, ${train.length} orders (${lines(train)} line items) in ${ordersMs} ms, batches of ${BATCH}; RSS ${rssMb} MB\n`);

    let defaultTrending: number[] | null = null;
    for (const [key, label, path] of [
      ['customers_trending', 'service: trending_products', '/products/trending_products?limit=10&filter_oos=no'],
      ['customers_top_sellers', 'service: top_sellers', '/products/top_sellers?limit=10'],
    ] as const) {
      const answer = await getList(service, path);
      if (key === 'customers_trending') defaultTrending = answer.ids;
      add(key, label, answer.ids && scoreShared(answer.ids, customerTargets), answer.note);
    }

    const knownTargets = (c: number) => boughtBy.get(c)!;
    add('known_popularity_30d', 'baseline: popularity, last 30 days', scoreShared(pop30, known.map(knownTargets)));
    const repeat = new Tally();
    for (const c of known) repeat.add(fill(history.get(c)!.slice(0, K), pop30, K), knownTargets(c));
    add('known_purchased_then_popular', 'baseline: purchased (most units), then popularity 30d', repeat.score());
    const rulesetId = await createRuleset(service, PURCHASED_THEN_TRENDING);
    const custom = await perCase(known, (c) => `/custom/id/${rulesetId}?shop_customer_id=${c}&limit=10`, knownTargets);
    add('known_purchased_then_trending', 'service: custom "purchased then trending"', custom.score, custom.note);

    const co = new CoOccurrence(train);
    const co90 = new CoOccurrence(train, serviceTime - 90 * DAY_MS);
    const tallies = { popularity: new Tally(), all: new Tally(), count90: new Tally(), cosine90: new Tally() };
    for (const b of baskets) {
      tallies.popularity.add(fill([], popAll, K, new Set([b.input])), b.targets);
      tallies.all.add(co.top(b.input, K, popAll), b.targets);
      tallies.count90.add(co90.top(b.input, K, popAll), b.targets);
      tallies.cosine90.add(co90.top(b.input, K, popAll, 'cosine'), b.targets);
    }
    add('baskets_popularity', 'baseline: popularity, all training', tallies.popularity.score());
    add('baskets_cooccurrence', 'baseline: co-occurrence counts, all training', tallies.all.score());
    add('baskets_cooccurrence_90d', 'baseline: co-occurrence counts, last 90 days', tallies.count90.score());
    add('baskets_cosine_90d', 'baseline: co-occurrence cosine, last 90 days', tallies.cosine90.score());
    const rec = await perCase(baskets, (b) => `/products/recommended?shop_product_ids=${b.input}&limit=10`, (b) => b.targets);
    add('baskets_recommended', 'service: recommended', rec.score, rec.note);
    const meanMs = requestStats.count ? Math.round((requestStats.ms / requestStats.count) * 100) / 100 : 0;
    const requestCount = requestStats.count;

    // Sweeps: co-purchase weightings offline (popularity 30d fill), then trending settings through the service.
    let sweepStarted = performance.now();
    const since30 = serviceTime - 30 * DAY_MS;
    const sweepFill = popularity(train, 2 * K + 1, since30);
    const coSweep = {
      '90d': coPurchaseSweep(train, serviceTime - 90 * DAY_MS, serviceTime, baskets, sweepFill, K),
      all: coPurchaseSweep(train, -Infinity, serviceTime, baskets, sweepFill, K),
    };
    const coSweepMs = Math.round(performance.now() - sweepStarted);
    sweepStarted = performance.now();
    const trending = await trendingSweep(service, (ids) => scoreShared(ids, customerTargets), defaultTrending);
    const trendingSweepMs = Math.round(performance.now() - sweepStarted);

    const sections: [string, string][] = [
      ['customers_', `Validation customers with a purchase (n=${customers.length}): one list for everyone`],
      ['known_', `Validation customers also in training, deterministic sample (n=${known.length})`],
      ['baskets_', `Basket completion: validation orders with >= 2 products, first product by StockCode in, the rest as targets (n=${baskets.length})`],
    ];
    console.log(`${'method'.padEnd(56)} ${`hit@${K}`.padStart(8)} ${`recall@${K}`.padStart(10)} ${'n'.padStart(6)}`);
    for (const [prefix, title] of sections) {
      console.log(`-- ${title}`);
      for (const r of rows.filter((row) => row.key.startsWith(prefix))) {
        const [hit, recall, n] = r.score ? [fmt(r.score.hit_rate), fmt(r.score.recall), String(r.score.n)] : ['n/a', 'n/a', '-'];
        console.log(`${r.label.padEnd(56)} ${hit.padStart(8)} ${recall.padStart(10)} ${n.padStart(6)}${r.note ? `  (${r.note})` : ''}`);
      }
    }
    console.log(`recall@${K} = mean of |list ∩ bought| / min(|bought|, ${K}); hit@${K} = share of cases with at least one bought product in the list`);
    printCoPurchaseSweep(coSweep, baskets.length, `fill: popularity (units) of the 30 days to ${isoSeconds(serviceTime)}; ${coSweepMs} ms`);
    printTrendingSweep(trending.results, customers.length, trending.restored);
    console.log(`trending sweep (ms)   ${trendingSweepMs}, ${trending.results.length} settings, each a PATCH and one request (not in the request figures below)`);
    console.log(`\nimport products (ms)  ${productsMs}\nimport orders (ms)    ${ordersMs}\nimport total (ms)     ${productsMs + ordersMs}\npublic API requests   ${requestCount}, mean latency ${meanMs} ms (${CONCURRENCY} in flight)`);
    const totalMs = Math.round(performance.now() - started);
    console.log(`total run (ms)        ${totalMs}`);
    notes.push(...rows.filter((r) => r.note).map((r) => `${r.key}: ${r.note}`));
    console.log(JSON.stringify({
      data: {
        rows: retail.rows, products: retail.products.length, train_orders: train.length, train_line_items: lines(train),
        valid_orders: valid.length, valid_customers: customers.length, known_customers_sampled: known.length, baskets_sampled: baskets.length,
        validation_start: isoSeconds(cutoff), data_end: isoSeconds(retail.lastAt), service_time: isoSeconds(serviceTime),
      },
      k: K,
      recall_denominator: `min(|bought|, ${K})`,
      metrics: Object.fromEntries(rows.map((r) => [r.key, r.score])),
      import_ms: { products: productsMs, orders: ordersMs, total: productsMs + ordersMs },
      rss_mb_after_import: rssMb,
      csv_load_ms: loadMs,
      requests: { count: requestCount, mean_latency_ms: meanMs, concurrency: CONCURRENCY },
      co_purchase_sweep: { fill: 'popularity_30d', ...coSweep },
      trending_sweep: { results: trending.results, restored_default: trending.restored },
      sweep_ms: { co_purchase: coSweepMs, trending: trendingSweepMs },
      total_ms: totalMs,
      notes,
    }));
  } finally {
    await service?.running.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (!existsSync(DATA_DIR)) {
  console.log('../shared/data/online-retail not found: skipping the evaluation');
  process.exit(0);
}
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
