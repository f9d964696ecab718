import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { seedBilling } from '../helpers/billing.js';

const COMMON = [
  'format',
  'metafields',
  'variant_metafields',
  'bust_cache',
  'limit',
  'country_code',
  'filter_oos',
  'unset_variants',
  'any_variant_price_less_than',
  'any_variant_price_less_than_or_equal_to',
  'any_variant_price_equal_to',
  'variant_price_greater_than',
  'variant_price_greater_than_or_equal_to',
];

/** Every public endpoint with the parameters it documents. */
const ENDPOINTS: { method: 'GET' | 'POST'; path: string; params: string[]; key: 'public' | 'private' }[] = [
  { method: 'GET', path: '/api/v1/products/static', params: ['ids', 'handles', ...COMMON], key: 'public' },
  {
    method: 'GET',
    path: '/api/v1/custom/id/1',
    params: [
      'shop_product_ids',
      'shop_variant_ids',
      'shop_customer_id',
      'cart_subtotal',
      'cart_line_count',
      'cart_item_count',
      'time',
      'uuid',
      'url',
      ...COMMON,
    ],
    key: 'public',
  },
  { method: 'GET', path: '/api/v1/products/trending_products', params: ['shop_product_ids', ...COMMON], key: 'public' },
  { method: 'GET', path: '/api/v1/products/top_sellers', params: ['shop_product_ids', ...COMMON], key: 'public' },
  { method: 'GET', path: '/api/v1/products/collections', params: ['shop_collection_ids', 'shop_product_ids', 'smart_sort', ...COMMON], key: 'public' },
  { method: 'GET', path: '/api/v1/products/search', params: ['query', 'uuid', 'shop_customer_id', ...COMMON], key: 'public' },
  { method: 'GET', path: '/api/v1/products/recommended', params: ['shop_product_ids', ...COMMON], key: 'public' },
  { method: 'GET', path: '/api/v1/products/similar_products', params: ['shop_product_ids', ...COMMON], key: 'public' },
  { method: 'GET', path: '/api/v1/products/purchased', params: ['shop_customer_id', ...COMMON], key: 'public' },
  { method: 'GET', path: '/api/v1/products/viewed', params: ['uuid', 'shop_customer_id', ...COMMON], key: 'public' },
  {
    method: 'POST',
    path: '/api/v1/analytics/event',
    params: ['subject', 'verb', 'noun', 'shop_product_handle', 'subject_email', 'theme_id', 'uuid', 'shop_customer_id'],
    key: 'public',
  },
  {
    method: 'POST',
    path: '/api/v1/analytics/track',
    params: ['type', 'uuid', 'shop_customer_id', 'source', 'product_id', 'variant_id', 'at', 'events'],
    key: 'public',
  },
  {
    method: 'GET',
    path: '/api/v1/billing/reactivate',
    params: ['billing_customer_id', 'campaign_id', 'billing_subscription_ids', 'billing_discount_code', 'tk', 'request_type', 'bust_cache', 'format'],
    key: 'private',
  },
  {
    method: 'POST',
    path: '/api/v1/billing/onetime',
    params: ['address_id', 'charge_id', 'next_charge_scheduled_at', 'shop_variant_id', 'quantity', 'charge_now', 'format'],
    key: 'private',
  },
];

const hostile = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '-1',
    '0',
    '1',
    '100',
    '101',
    '1e309',
    'NaN',
    'Infinity',
    '9'.repeat(400),
    'yes',
    'no',
    'YES',
    'all',
    'pretty',
    'live',
    'today',
    '\u0000',
    'ü',
    '😀',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '1,2,3',
    ',,,',
    '2026-02-30',
    '3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b',
    '/re(/',
    '1'.repeat(17),
    '-0.5',
    '0x10',
    '1 2',
    '%',
    '{"a":1}',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer().map(String),
);

describe('hostile input (property-based sweep over every public parameter)', () => {
  const [backend] = backends();
  let t: TestApp;
  let keys: { public: string; private: string };
  beforeAll(async () => {
    t = await startApp(backend!);
    const shop = await seedBilling(t, 'fuzz');
    keys = shop;
    await t.admin('POST', '/admin/v1/shops/fuzz/rulesets', {
      name: 'r',
      rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/trending_products' }] }],
    });
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  it('never answers 5xx, always JSON, and every 4xx names what is wrong', async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        fc.array(fc.tuple(fc.nat(), hostile), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('plain', 'repeated', 'bracketed', 'body'),
        async (endpoint, picks, shape) => {
          cases++;
          const params = new URLSearchParams({ key: keys[endpoint.key] });
          const body: Record<string, string> = {};
          for (const [i, value] of picks) {
            const name = endpoint.params[i % endpoint.params.length]!;
            if (shape === 'body' && endpoint.method === 'POST') body[name] = value;
            else params.append(shape === 'bracketed' ? `${name}[]` : name, value);
            if (shape === 'repeated') params.append(name, value);
          }
          const res = await t.app.inject({
            method: endpoint.method,
            url: `${endpoint.path}?${params}`,
            ...(Object.keys(body).length ? { payload: body } : {}),
          });
          expect(res.statusCode, `${endpoint.method} ${endpoint.path}?${params} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
          expect(res.headers['content-type']).toContain('application/json');
          const json = res.json();
          if (res.statusCode >= 400) {
            expect(typeof json.error).toBe('string');
            expect(json.error.length).toBeGreaterThan(5);
          }
        },
      ),
      { numRuns: 600 },
    );
    expect(cases).toBeGreaterThanOrEqual(600);
  });
});
