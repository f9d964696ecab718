/** One data set through the service: every list next to its baseline, on the same held-out cases. */
import { CoOccurrence, fill, popularity, purchasesByCustomer } from './baselines.js';
import { K, sample, scoreShared, Tally, type Score } from './metrics.js';
import { DAY_MS, orderDocument, productDocument, type Invoice, type RetailProduct } from './retail.js';
import { createRuleset, createShop, getList, importBatches, mapPool, modelBuilt, type EvalShop, type Service } from './service.js';
import { forYouBlendSweep, forYouSweep, recommendedSweep, trendingSweep } from './sweeps.js';
import { getOrCreate } from '../../src/domain/maps.js';

export interface Dataset {
  name: string;
  handle: string;
  products: RetailProduct[];
  train: Invoice[];
  valid: Invoice[];
  /** A validation split of the training orders alone (tuning never sees `valid`): the model fits `fit`, `check` scores. */
  carve: (train: readonly Invoice[]) => { fit: Invoice[]; check: Invoice[]; label: string };
}
export type Row = { key: string; label: string; score: Score | null; note?: string };

const CUSTOMER_SAMPLE = 800;
const BASKET_SAMPLE = 1500;
const SEED = 20111031;
const BATCH = 2000;
const CONCURRENCY = 8;
const PURCHASED_THEN_TRENDING = {
  name: 'purchased then trending',
  filter_input_products: false,
  rules: [
    { logic: [{ rules: [{ type: 'customer', operator: 'is_logged_in' }] }], output: [{ type: 'endpoint', endpoint: '/products/purchased?limit=10' }] },
    { logic: [], output: [{ type: 'endpoint', endpoint: '/products/trending_products' }] },
  ],
};

/** A service list fetched per case and scored; null (n/a) when the endpoint is not there. */
async function perCase<T>(
  shop: EvalShop,
  cases: readonly T[],
  path: (c: T) => string,
  targets: (c: T) => ReadonlySet<number>,
): Promise<{ score: Score | null; note?: string }> {
  if (cases.length === 0) return { score: null, note: 'no cases' };
  const answers = await mapPool(cases, CONCURRENCY, (c) => getList(shop, path(c)));
  if (answers[0]!.ids === null) return { score: null, note: answers[0]!.note };
  const tally = new Tally();
  cases.forEach((c, i) => {
    tally.add(answers[i]!.ids ?? [], targets(c));
  });
  return { score: tally.score() };
}

/** Imports the training orders as a shop, waits for its model, scores every list and baseline, and runs the offline sweeps. */
export async function evaluate(service: Service, data: Dataset) {
  const rows: Row[] = [];
  const add = (key: string, label: string, score: Score | null, note?: string) => rows.push({ key, label, score, ...(note ? { note } : {}) });
  const { train, valid } = data;
  const reference = train.reduce((max, o) => Math.max(max, o.at), 0);
  const shop = await createShop(service, data.handle, `${data.name} (evaluation)`);
  const importMs = {
    products: await importBatches(shop, 'products', data.products.map(productDocument), BATCH),
    orders: await importBatches(shop, 'orders', train.map(orderDocument), BATCH),
  };
  const started = performance.now();
  const model = await modelBuilt(shop);
  const modelWaitMs = Math.round(performance.now() - started);

  const boughtBy = new Map<number, Set<number>>();
  for (const order of valid) {
    if (order.customer === null) continue;
    const set = getOrCreate(boughtBy, order.customer, () => new Set());
    for (const id of order.items.keys()) set.add(id);
  }
  const customers = [...boughtBy.keys()].sort((a, b) => a - b);
  const customerTargets = customers.map((c) => boughtBy.get(c)!);
  const history = purchasesByCustomer(train);
  const known = sample(
    customers.filter((c) => history.has(c)),
    CUSTOMER_SAMPLE,
    SEED,
  );
  const knownTargets = (c: number) => boughtBy.get(c)!;
  const baskets = sample(
    valid
      .filter((o) => o.items.size >= 2)
      .map((o) => {
        const [input, ...rest] = [...o.items.keys()];
        return { input: input!, targets: new Set(rest) };
      }),
    BASKET_SAMPLE,
    SEED,
  );

  // One list for every validation customer.
  const pop28 = popularity(train, K, reference - 28 * DAY_MS);
  const pop30 = popularity(train, 3 * K, reference - 30 * DAY_MS);
  add('customers_popularity_28d', 'baseline: popularity (units), last 28 days', scoreShared(pop28, customerTargets));
  add('customers_popularity_30d', 'baseline: popularity (units), last 30 days', scoreShared(pop30.slice(0, K), customerTargets));
  const trending = await getList(shop, '/products/trending_products?limit=10&filter_oos=no');
  add('customers_trending', 'service: trending_products (defaults)', trending.ids && scoreShared(trending.ids, customerTargets), trending.note);
  const top = await getList(shop, '/products/top_sellers?limit=10');
  add('customers_top_sellers', 'service: top_sellers (90 days, units)', top.ids && scoreShared(top.ids, customerTargets), top.note);

  // Returning customers: personal lists.
  const repeat = new Tally();
  const popularOnly = new Tally();
  for (const c of known) {
    repeat.add(fill(history.get(c)!.slice(0, K), pop30, K), knownTargets(c));
    popularOnly.add(fill([], pop30, K, new Set(history.get(c)!)), knownTargets(c));
  }
  add('known_purchased_then_popular', "baseline: the customer's purchases (units), then popularity 30d", repeat.score());
  const kept = await perCase(shop, known, (c) => `/products/for_you?shop_customer_id=${c}&include_purchased=yes&limit=10&filter_oos=no`, knownTargets);
  add('known_for_you_kept', 'service: for_you, include_purchased=yes', kept.score, kept.note);
  const rulesetId = await createRuleset(shop, PURCHASED_THEN_TRENDING);
  const custom = await perCase(shop, known, (c) => `/custom/id/${rulesetId}?shop_customer_id=${c}&limit=10`, knownTargets);
  add('known_purchased_then_trending', 'service: ruleset "purchased, then trending"', custom.score, custom.note);
  add('known_popular_unbought', 'baseline: popularity 30d, purchases left out', popularOnly.score());
  const leftOut = await perCase(shop, known, (c) => `/products/for_you?shop_customer_id=${c}&limit=10&filter_oos=no`, knownTargets);
  add('known_for_you', 'service: for_you (default: purchases left out)', leftOut.score, leftOut.note);

  // Basket completion: the first product of a held-out order in, the rest as targets.
  const popAll = popularity(train, 2 * K + 1);
  const co = new CoOccurrence(train);
  const co90 = new CoOccurrence(train, reference - 90 * DAY_MS);
  const counts = { all: new Tally(), d90: new Tally(), popular: new Tally() };
  for (const b of baskets) {
    counts.popular.add(fill([], popAll, K, new Set([b.input])), b.targets);
    counts.all.add(co.top(b.input, K, popAll), b.targets);
    counts.d90.add(co90.top(b.input, K, popAll), b.targets);
  }
  add('baskets_popularity', 'baseline: popularity, all training', counts.popular.score());
  add('baskets_cooccurrence', 'baseline: raw co-occurrence counts, all training', counts.all.score());
  add('baskets_cooccurrence_90d', 'baseline: raw co-occurrence counts, last 90 days', counts.d90.score());
  const rec = await perCase(
    shop,
    baskets,
    (b) => `/products/recommended?shop_product_ids=${b.input}&limit=10&filter_oos=no`,
    (b) => b.targets,
  );
  add('baskets_recommended', 'service: recommended (the model, defaults)', rec.score, rec.note);

  const sweepStarted = performance.now();
  const sweeps = {
    recommended: recommendedSweep(train, reference, baskets, popAll),
    for_you: forYouSweep(train, known, knownTargets, pop30),
    trending: trendingSweep(train, reference, customerTargets),
  };
  const carved = data.carve(train);
  const blend = {
    split: carved.label,
    validation: forYouBlendSweep(carved.fit, carved.check, CUSTOMER_SAMPLE, SEED),
    held_out: forYouBlendSweep(train, valid, CUSTOMER_SAMPLE, SEED),
  };
  return {
    rows,
    sweeps,
    blend,
    model,
    import_ms: importMs,
    model_wait_ms: modelWaitMs,
    sweep_ms: Math.round(performance.now() - sweepStarted),
    cases: { valid_customers: customers.length, known_customers: known.length, baskets: baskets.length },
  };
}
