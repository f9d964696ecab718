import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { seedBilling } from '../helpers/billing.js';

const BULK = [
  'products',
  'collections',
  'inventory',
  'customers',
  'markets',
  'orders',
  'billing/customers',
  'billing/addresses',
  'billing/subscriptions',
  'billing/charges',
];

const hostileJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(
    fc.dictionary(
      fc.constantFrom(
        'id',
        'title',
        'handle',
        'variants',
        'price',
        'products',
        'product_id',
        'variant_id',
        'inventory_quantity',
        'email',
        'tags',
        'countries',
        'currency',
        'created_at',
        'line_items',
        'customer_id',
        'address_id',
        'status',
        'scheduled_at',
        'type',
        'base_url',
        'api_token',
        'api_version',
        'max_claims_per_customer',
        'name',
        'ruleset_id',
        'arms',
        'weight',
        'winner',
        'properties',
        'refunds',
        '__proto__',
        'constructor',
      ),
      fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(-1, 0, 1e309 as number, '', '\u0000', '9'.repeat(300), [], {}, null)),
    ),
    { maxLength: 3 },
  ),
);

/** Admin endpoints under generated bodies and parameters: never a 5xx, always a named JSON error. */
describe('hostile input on the admin API', () => {
  const [backend] = backends();
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(backend!);
    await seedBilling(t, 'afuzz');
    await t.admin('POST', '/admin/v1/shops/afuzz/campaigns', { name: 'Fuzzed' });
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  it('never answers 5xx to generated bulk bodies, shop documents, rulesets and previews', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          ...BULK.map((p) => ['PUT', `/admin/v1/shops/afuzz/${p}`]),
          ['POST', '/admin/v1/shops'],
          ['PATCH', '/admin/v1/shops/afuzz'],
          ['POST', '/admin/v1/shops/afuzz/rulesets'],
          ['POST', '/admin/v1/shops/afuzz/rulesets/new/preview'],
          ['POST', '/admin/v1/shops/afuzz/campaigns'],
          ['PATCH', '/admin/v1/shops/afuzz/campaigns/1'],
          ['PUT', '/admin/v1/shops/afuzz/billing/provider'],
          ['POST', '/admin/v1/shops/afuzz/experiments'],
          ['POST', '/admin/v1/shops/afuzz/experiments/1/stop'],
        ),
        hostileJson,
        async ([method, url], body) => {
          const res = await t.admin(method as 'PUT', url!, JSON.stringify(body) === undefined ? null : body);
          expect(res.statusCode, `${method} ${url} ${JSON.stringify(body).slice(0, 200)} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
          if (res.statusCode >= 400) expect(typeof res.json().error).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never answers 5xx to generated admin query and path parameters', async () => {
    const value = fc.oneof(
      fc.constantFrom('', '-1', '0', '1e309', 'NaN', '9'.repeat(40), '\u0000', '😀', "' OR 1=1 --", '../x', 'new', '1,2'),
      fc.string({ maxLength: 20 }),
    );
    await fc.assert(
      fc.asyncProperty(value, value, value, async (a, b, c) => {
        const e = encodeURIComponent;
        for (const url of [
          `/admin/v1/shops/afuzz/products?query=${e(a)}&limit=${e(b)}&page=${e(c)}`,
          `/admin/v1/shops/afuzz/events?uuid=${e(a)}&shop_customer_id=${e(b)}&limit=${e(c)}`,
          `/admin/v1/shops/afuzz/rulesets/${e(a) || 'x'}`,
          `/admin/v1/shops/afuzz/campaigns/${e(b) || 'x'}/stats`,
          `/admin/v1/shops/${e(c) || 'x'}`,
          `/admin/v1/shops/afuzz/products?ids=${e(a)}&limit=${e(b)}`,
          `/admin/v1/shops/afuzz/insights?days=${e(a)}`,
          `/admin/v1/shops/${e(b) || 'x'}/insights?days=${e(c)}`,
          `/admin/v1/shops/${e(c) || 'x'}/campaigns`,
          `/admin/v1/session?x=${e(a)}`,
          `/admin/v1/shops/${e(a) || 'x'}/billing/provider`,
          `/admin/v1/shops/afuzz/experiments/${e(a) || 'x'}/results`,
          `/admin/v1/shops/afuzz/experiments/${e(b) || 'x'}/series`,
          `/admin/v1/shops/afuzz/attribution?days=${e(c)}`,
        ]) {
          const res = await t.admin('GET', url);
          expect(res.statusCode, `${url} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
          if (res.statusCode >= 400) expect(typeof res.json().error).toBe('string');
        }
        const del = await t.admin('DELETE', `/admin/v1/shops/afuzz/products/${e(a) || 'x'}`);
        expect(del.statusCode).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses oversized bodies with a JSON 413', async () => {
    const big = JSON.stringify({ subject: 'user', verb: 'viewed', noun: 'product', shop_product_handle: 'x'.repeat(2 * 1024 * 1024) });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/analytics/event?key=nope', payload: big, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'Request body is too large.' });
    const admin = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/shops',
      payload: big,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.config.adminToken}` },
    });
    expect(admin.statusCode).toBe(413);
  });
});
