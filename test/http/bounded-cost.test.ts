import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { productInput } from '../helpers/fixtures.js';
import { routeRecorder } from '../helpers/route-table.js';
import { TIME_BOUNDS, timed } from '../helpers/sweep.js';

/**
 * The costliest known inputs on a large catalog (docs/operations.md, "Process limits"): answered
 * right in every run, held to 50 ms of server time in the measurement run (`npm run bench:bounds`).
 */
const BOUND_MS = 50;
/** The fastest of three tries is held to the bound, in the measurement run only. */
const withinBound = (ms: number) => {
  if (TIME_BOUNDS) expect(ms).toBeLessThanOrEqual(BOUND_MS);
};
const PRODUCTS = 10_000;
const WORDS = [
  'wool',
  'linen',
  'cotton',
  'tent',
  'stove',
  'lamp',
  'boot',
  'sock',
  'mug',
  'kettle',
  'rope',
  'pack',
  'chair',
  'mat',
  'hat',
  'glove',
];
const word = (i: number, salt: number) => WORDS[(i * 7 + salt * 13) % WORDS.length]!;

describe('the costliest known inputs on a 10,000-product shop', () => {
  const [backend] = backends();
  const rec = routeRecorder();
  let t: TestApp;
  let key: string;
  const bigHandle = 'big-description';

  /** The fastest of three tries (one, unless the run holds times to the bound): its server time is printed. */
  const fastest = async (
    options: InjectOptions | (() => InjectOptions),
  ): Promise<{ res: LightMyRequestResponse; ms: number }> => {
    const tries = [];
    for (let i = 0; i < (TIME_BOUNDS ? 3 : 1); i++)
      tries.push(await timed(t, rec, typeof options === 'function' ? options() : options));
    const best = tries.reduce((a, b) => (b.ms < a.ms ? b : a));
    const url = String(typeof options === 'function' ? options().url : options.url).slice(0, 90);
    console.info(`${url}: ${tries.map((x) => x.ms.toFixed(1)).join(' / ')} ms`);
    return best;
  };
  const ruleset = async (rules: unknown[]) =>
    t.admin('POST', '/admin/v1/shops/big/rulesets', { name: `r${Math.random()}`, rules });

  beforeAll(async () => {
    t = await startApp(backend!, {}, { beforeRoutes: rec.install });
    const shop = await t.createShop('big');
    key = shop.public;
    const started = performance.now();
    const products = Array.from({ length: PRODUCTS }, (_, i) =>
      productInput(i + 1, {
        title: `${word(i, 1)} ${word(i, 2)} ${i}`,
        tags: `${word(i, 3)}, ${word(i, 4)}`,
        product_type: word(i, 5),
        vendor: word(i, 6),
      }),
    );
    // 512 KB (the most a description may hold) of unclosed tags: stripping them naively is quadratic.
    products.push(
      productInput(PRODUCTS + 1, {
        handle: bigHandle,
        title: 'Big description',
        body_html: `<p>${'<a '.repeat(170_665)}`,
      }),
    );
    const put = await t.admin('PUT', '/admin/v1/shops/big/products', products);
    expect(put.statusCode, put.body.slice(0, 300)).toBe(200);
    // The first request loads the shop's catalog and builds its indexes; every test below measures requests after it.
    expect((await t.app.inject(`/api/v1/products/search?key=${key}&query=wool`)).statusCode).toBe(200);
    // The shop's model (content similarity of every product) is built off the request path; wait for it.
    t.services.models.get(shop.id);
    await t.services.models.settled(shop.id);
    expect(t.services.models.get(shop.id)?.content).toBeDefined();
    console.info(`10,001 products imported and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 120_000);
  afterAll(() => t.close().then(() => backend!.cleanup()));

  it('(a) a catastrophic regular expression against the longest url, and a url over the cap', async () => {
    const saved = await ruleset([
      {
        logic: [{ rules: [{ type: 'url', operator: 'matches_regex', value: '/^(a+)+$/' }] }],
        output: [{ type: 'endpoint', endpoint: '/products/top_sellers' }],
      },
    ]);
    expect(saved.statusCode, saved.body).toBe(201);
    const id = saved.json().ruleset.id;
    const longest = await fastest({
      url: `/api/v1/custom/id/${id}?key=${key}&bust_cache=yes&url=${'a'.repeat(2047)}!`,
    });
    expect(longest.res.statusCode, longest.res.body.slice(0, 200)).toBe(200);
    withinBound(longest.ms);
    const over = await fastest({ url: `/api/v1/custom/id/${id}?key=${key}&bust_cache=yes&url=${'a'.repeat(5000)}!` });
    expect(over.res.statusCode).toBe(400);
    expect(over.res.json().error).toContain('url');
    withinBound(over.ms);
  });

  it('(b) a 512 KB body_html on /widget-demo and in search', async () => {
    const page = await fastest({ url: `/widget-demo?key=${key}&product=${bigHandle}` });
    expect(page.res.statusCode).toBe(200);
    withinBound(page.ms);
    const search = await fastest({ url: `/api/v1/products/search?key=${key}&query=big%20description&bust_cache=yes` });
    expect(search.res.statusCode).toBe(200);
    expect(search.res.json().data.map((p: { handle: string }) => p.handle)).toContain(bigHandle);
    withinBound(search.ms);
  });

  it('(b) a search of many one-letter words: repeats are one word, more than ten a 400', async () => {
    const search = (query: string) => `/api/v1/products/search?key=${key}&query=${encodeURIComponent(query)}`;
    const one = await t.app.inject(search('a'));
    expect(one.statusCode).toBe(200);
    // A hundred times the same word is the same search: the answer stored for `a`.
    const repeated = await fastest({ url: search(Array(100).fill('a').join(' ')) });
    expect(repeated.res.statusCode).toBe(200);
    expect(repeated.res.headers['x-cache']).toBe('hit');
    expect(repeated.res.body).toBe(one.body);
    const letters = 'abcdefghijk'.split('');
    const ten = await fastest({ url: `${search(letters.slice(0, 10).join(' '))}&bust_cache=yes` });
    expect(ten.res.statusCode).toBe(200);
    withinBound(ten.ms);
    const eleven = await t.app.inject(search(letters.join(' ')));
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json().error).toContain('query');
  });

  it('(c) similar_products for 250 products, uncached', async () => {
    let round = 0;
    const ids = () => Array.from({ length: 250 }, (_, i) => ((round * 250 + i * 37) % PRODUCTS) + 1).join(',');
    const similar = await fastest(() => ({
      url: `/api/v1/products/similar_products?key=${key}&limit=100&shop_product_ids=${ids()}&r=${round++}`,
    }));
    expect(similar.res.statusCode, similar.res.body.slice(0, 200)).toBe(200);
    expect(similar.res.headers['x-cache']).toBe('miss');
    expect(similar.res.json().data.length).toBeGreaterThan(0);
    withinBound(similar.ms);
  });

  it('(c) an unknown parameter is a cache hit, not a recomputation', async () => {
    const url = `/api/v1/products/similar_products?key=${key}&shop_product_ids=1,2,3`;
    expect((await t.app.inject(url)).statusCode).toBe(200);
    const again = await t.app.inject(`${url}&x=${Math.random().toString(36).slice(2)}`);
    expect(again.statusCode).toBe(200);
    expect(again.headers['x-cache']).toBe('hit');
  });

  it('(d) a ruleset of 20 endpoint outputs answers; 21 are refused when saved', async () => {
    const endpoints = [
      'similar_products?shop_product_ids=1,2,3',
      'trending_products',
      'top_sellers',
      'search?query=wool',
      'recommended?shop_product_ids=5',
    ];
    const outputs = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        type: 'endpoint',
        endpoint: `/products/${endpoints[i % endpoints.length]}&limit=${50 + i}`.replace('s&', 's?'),
      }));
    const refused = await ruleset([{ logic: [], output: outputs(21) }]);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('20');
    const saved = await ruleset([{ logic: [], output: outputs(20) }]);
    expect(saved.statusCode, saved.body).toBe(201);
    const custom = await fastest({
      url: `/api/v1/custom/id/${saved.json().ruleset.id}?key=${key}&bust_cache=yes&limit=250`,
    });
    expect(custom.res.statusCode, custom.res.body.slice(0, 200)).toBe(200);
    withinBound(custom.ms);
  });
});
