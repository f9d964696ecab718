import { createHash, createHmac } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose } from '../../src/compose.js';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/http/app.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { seedBilling } from '../helpers/billing.js';
import { productInput } from '../helpers/fixtures.js';
import { widgetInput } from '../helpers/widgets.js';
import { EXCLUDED, familyOf, ResponseChecker } from '../helpers/response-checker.js';

/**
 * Every answer of every route is checked against the response schema its route declares: objects
 * before serialization (so a property a serializer would drop is caught), pre-assembled JSON bytes
 * as sent, other content types by their declared type. Objects are closed unless the schema says
 * otherwise. The last case asserts that every registered route was exercised here.
 */

const BILLING_SECRET = 'billing-client-secret-0123456789';
const SHOP_SECRET = 'storefront-webhook-secret-0123456789';
const HANDLE = 'schemas';
const UUID = '00000000-0000-4000-8000-000000000001';

const backend = backends().find((b) => b.name === 'sqlite')!;

describe('response schemas: every answer matches its route', () => {
  const checker = new ResponseChecker();
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let pub: string;
  let priv: string;
  const admin = (
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    bearer = ADMIN_TOKEN,
  ): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url: `/admin/v1${url}`,
      headers: { authorization: `Bearer ${bearer}` },
      ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
    });
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
  const shop = `/shops/${HANDLE}`;
  /** Every request's answer has been checked by the hooks; a case fails with the problems found. */
  const expectValid = () => expect(checker.problems.splice(0)).toEqual([]);
  const expectStatus = (res: LightMyRequestResponse, status: number) =>
    expect(res.statusCode, res.body.slice(0, 300)).toBe(status);

  beforeAll(async () => {
    const url = await backend.url();
    const config = loadConfig({
      DATABASE_URL: url,
      REBOUND_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'silent',
      REBOUND_DEMO: 'false',
    });
    const services = await compose(config);
    app = await buildApp(services, config, { logger: false, beforeRoutes: (a) => checker.install(a) });
    close = async () => {
      await app.close();
      await services.close();
    };
    const t = {
      app,
      services,
      config,
      admin: (method: InjectOptions['method'], path: string, body?: unknown) =>
        app.inject({
          method,
          url: path,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
        }),
      async createShop(handle: string, extra: Record<string, unknown> = {}) {
        const res = await admin('POST', '/shops', { handle, name: `Shop ${handle}`, ...extra });
        if (res.statusCode !== 201) throw new Error(`shop creation failed: ${res.body}`);
        const body = res.json();
        return { id: body.shop.id as number, public: body.keys.public as string, private: body.keys.private as string };
      },
      close: async () => {},
    };
    const keys = await seedBilling(t as never, HANDLE);
    pub = keys.public;
    priv = keys.private;
    const put = async (path: string, body: unknown) => expectStatus(await admin('PUT', `${shop}/${path}`, body), 200);
    await put(
      'products',
      [3, 4, 5, 6].map((id) => productInput(id)),
    );
    await put('collections', [
      { id: 900, title: 'All', handle: 'all', products: [{ product_id: 1 }, { product_id: 3 }] },
    ]);
    await put('customers', [{ id: 9100, email: 'ada@example.com', tags: ['vip'] }]);
    await put('markets', [
      { id: 1, name: 'Europe', countries: ['DE', 'FR'], currency: 'EUR', price_adjustment_percent: 10 },
    ]);
    await put('orders', [
      {
        id: 1,
        created_at: '2026-11-01T00:00:00Z',
        customer: { id: 9100 },
        line_items: [
          { product_id: 1, variant_id: 11, quantity: 1, price: '10.00' },
          { product_id: 3, quantity: 2, price: '10.00' },
        ],
      },
      {
        id: 2,
        created_at: '2026-11-02T00:00:00Z',
        customer: { id: 9101 },
        line_items: [
          { product_id: 1, quantity: 1, price: '10.00' },
          { product_id: 3, quantity: 1, price: '10.00' },
          { product_id: 4, quantity: 1, price: '10.00' },
        ],
      },
    ]);
    await put('inventory', [{ variant_id: 12, inventory_quantity: 3 }]);
    expectStatus(
      await admin('PATCH', shop, { billing_webhook_secret: BILLING_SECRET, webhook_secret: SHOP_SECRET }),
      200,
    );
    checker.problems.splice(0);
  });
  afterAll(async () => {
    await close();
    await backend.cleanup();
  });

  it('checks its own check: an answer with an undeclared property or a wrong type is a problem', () => {
    const check = checker as unknown as {
      validate(route: string, status: number, schema: unknown, value: unknown): void;
    };
    const schema = { type: 'object', properties: { data: { type: 'string' } }, required: ['data'] };
    check.validate('GET /x', 200, schema, { data: 'ok' });
    expect(checker.problems).toEqual([]);
    check.validate('GET /x', 200, schema, { data: 'ok', extra: 1 });
    check.validate('GET /x', 200, schema, { data: 1 });
    expect(checker.problems.splice(0)).toHaveLength(2);
  });

  it('public lists, search and sources', async () => {
    const lists = [...checker.routes.keys()].filter((r) => r.startsWith('GET /api/v1/products/'));
    expect(lists.length).toBeGreaterThan(5);
    await app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${pub}&uuid=${UUID}&subject=user` +
        '&verb=viewed&noun=product&shop_product_handle=product-1',
    });
    for (const route of lists) {
      const path = route.slice(4);
      const query =
        `key=${pub}&shop_product_ids=1&shop_variant_ids=11&shop_customer_id=9100` +
        `&uuid=${UUID}&shop_collection_ids=900&query=Product&handles=product-1&ids=1,3`;
      const res = await get(`${path}?${query}`);
      expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(200);
      // Pretty, gzip-compressed from the cache, and a second time from the cache.
      await get(`${path}?${query}&format=pretty`);
      await get(`${path}?${query}`, { 'accept-encoding': 'gzip' });
    }
    const withProducts = await get(
      `/api/v1/products/static?key=${pub}&ids=1,2,3&metafields=yes&variant_metafields=yes`,
    );
    expect(withProducts.json().data.length).toBeGreaterThan(0);
    expectStatus(await get(`/api/v1/products/static?key=wrong-key-0000000000`), 401);
    expectStatus(await get(`/api/v1/products/static?ids=1`), 400);
    expectStatus(await get(`/api/v1/products/top_sellers?key=${pub}&limit=banana`), 400);
    expectStatus(await get('/api/v1/sources'), 200);
    expectStatus(await get(`/api/v1/openapi.json`), 200);
    expectValid();
  });

  it('custom with a ruleset, and the ruleset admin', async () => {
    const created = await admin('POST', `${shop}/rulesets`, {
      name: 'Cross-sell',
      rules: [
        {
          name: 'With 1',
          logic: [{ rules: [{ type: 'product', operator: 'contains_any', products: [{ product_id: 1 }] }] }],
          output: [{ type: 'product', products: [{ product_id: 3 }, { product_id: 4 }] }],
          exit_if_matched: true,
        },
        {
          logic: [],
          output: [
            { type: 'endpoint', endpoint: '/products/top_sellers' },
            { type: 'collection', collection_id: 900 },
          ],
        },
      ],
    });
    expectStatus(created, 201);
    const id = created.json().ruleset.id as number;
    expectStatus(await get(`/api/v1/custom/id/${id}?key=${pub}&shop_product_ids=1`), 200);
    expectStatus(await get(`/api/v1/custom/id/${id}?key=${pub}&shop_product_ids=2&format=pretty`), 200);
    // Unknown inputs and outputs are answered as errors in the metadata, each with its id or rule.
    const partial = await get(`/api/v1/custom/id/${id}?key=${pub}&shop_product_ids=1,999&shop_variant_ids=9999`);
    expect(
      partial
        .json()
        .metadata.errors.map((e: { code: string }) => e.code)
        .sort(),
    ).toEqual(['unknown_product', 'unknown_variant']);
    expectStatus(
      await get(`/api/v1/custom/id/${id}?key=${pub}&shop_product_ids=1`, { 'accept-encoding': 'gzip' }),
      200,
    );
    expectStatus(await get(`/api/v1/custom/id/999?key=${pub}`), 404);
    expectStatus(await get(`/api/v1/custom/id/abc?key=${pub}`), 400);
    const posted = (payload: unknown) =>
      app.inject({ method: 'POST', url: `/api/v1/custom/id/${id}`, payload: payload as object });
    expectStatus(
      await posted({ key: pub, shopify_product_ids: '1', cart: { subtotal: 5900, items: [{ product_id: 1 }] } }),
      200,
    );
    expectStatus(await posted({ key: pub, shop_product_ids: 'x' }), 400);

    expectStatus(await admin('GET', '/rule-catalog'), 200);
    expectStatus(await get('/admin/v1/rule-catalog'), 401);
    expectStatus(await get('/admin/v1/rule-catalog'), 401);
    expectStatus(await admin('GET', `${shop}/rulesets`), 200);
    expectStatus(await admin('GET', `${shop}/rulesets/${id}`), 200);
    expectStatus(await admin('GET', `${shop}/rulesets/999`), 404);
    expectStatus(
      await admin('PUT', `${shop}/rulesets/${id}`, { ...created.json().ruleset, name: 'Cross-sell 2' }),
      200,
    );
    expectStatus(await admin('POST', `${shop}/rulesets`, { name: '', rules: [{ output: [{ type: 'nope' }] }] }), 422);
    expectStatus(await admin('POST', `${shop}/rulesets/${id}/preview`, { shop_product_ids: [1] }), 200);
    expectStatus(
      await admin('POST', `${shop}/rulesets/new/preview`, {
        ruleset: { name: 'Draft', rules: [{ output: [{ type: 'product', products: [{ product_id: 5 }] }] }] },
        format: 'pretty',
      }),
      200,
    );
    expectStatus(await admin('POST', `${shop}/rulesets/new/preview`, [1]), 400);
    const doomed = await admin('POST', `${shop}/rulesets`, { name: 'Doomed', rules: [] });
    expectStatus(await admin('DELETE', `${shop}/rulesets/${doomed.json().ruleset.id}`), 204);
    expectStatus(await admin('DELETE', `${shop}/rulesets/${doomed.json().ruleset.id}`), 404);
    expectValid();
  });

  it('events and tracking', async () => {
    expectStatus(
      await app.inject({
        method: 'POST',
        url:
          `/api/v1/analytics/event?key=${pub}&uuid=${UUID}&subject=user` +
          '&verb=added&noun=product&shop_product_handle=product-3',
      }),
      200,
    );
    expectStatus(await app.inject({ method: 'POST', url: `/api/v1/analytics/event?key=${pub}&verb=jumped` }), 400);
    const track = await app.inject({
      method: 'POST',
      url: `/api/v1/analytics/track?key=${pub}`,
      payload: {
        events: [
          { type: 'impression', uuid: UUID, source: 'list:top_sellers', product_id: 1 },
          { type: 'click', uuid: UUID, source: 'list:top_sellers', product_id: 1 },
        ],
      },
    });
    expectStatus(track, 200);
    expectStatus(
      await app.inject({
        method: 'POST',
        url: `/api/v1/analytics/track?key=${pub}`,
        payload: { events: [{ type: 'stare' }] },
      }),
      400,
    );
    expectStatus(await admin('GET', `${shop}/events?uuid=${UUID}`), 200);
    expectStatus(await admin('GET', `${shop}/events?limit=0`), 400);
    // The GET twin of the intake, and the platform widget's batches.
    expectStatus(
      await get(
        `/api/v1/analytics/event?key=${pub}&uuid=${UUID}&subject=user` +
          '&verb=viewed&noun=product&shopify_product_handle=product-3',
      ),
      200,
    );
    expectStatus(await get(`/api/v1/analytics/event?key=${pub}&verb=jumped`), 400);
    const bulk = (payload: unknown) =>
      app.inject({
        method: 'POST',
        url: '/api/v2/analytics/event/bulk',
        headers: { 'x-rebuy-user-token': pub },
        payload: payload as object,
      });
    expectStatus(
      await bulk([{ subject: 'user', verb: 'viewed', noun: 'product', uuid: UUID, shopify_product_id: 3 }]),
      200,
    );
    expectStatus(await bulk({ events: [] }), 400);
    expectValid();
  });

  it('public billing: reactivation context and one-time purchases', async () => {
    const context = await get(`/api/v1/billing/reactivate?key=${priv}&billing_customer_id=100`);
    expectStatus(context, 200);
    expectStatus(
      await get(`/api/v1/billing/reactivate?key=${priv}&billing_customer_id=100&format=pretty&request_type=live`),
      200,
    );
    expectStatus(await get(`/api/v1/billing/reactivate?key=${pub}&billing_customer_id=100`), 403);
    expectStatus(await get(`/api/v1/billing/reactivate?key=${priv}&billing_customer_id=4242`), 404);
    const onetime = (query: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: `/api/v1/billing/onetime?key=${priv}&${query}`, headers });
    expectStatus(await onetime('address_id=500&shop_variant_id=11&quantity=2', { 'idempotency-key': 'once' }), 201);
    expectStatus(await onetime('address_id=500&shop_variant_id=11&quantity=2', { 'idempotency-key': 'once' }), 201);
    expectStatus(await onetime('address_id=500&shop_variant_id=11&quantity=3', { 'idempotency-key': 'once' }), 409);
    expectStatus(await onetime('address_id=500&shop_variant_id=11&charge_now=yes'), 201);
    expectStatus(
      await onetime('address_id=501&shop_variant_id=11&charge_now=yes&next_charge_scheduled_at=2099-02-01'),
      402,
    );
    expectStatus(await onetime('shop_variant_id=11'), 400);
    const subscribe = (query: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: `/api/v1/billing/subscribe?key=${priv}&${query}`, headers });
    const plan =
      'address_id=500&shopify_variant_id=11&order_interval_unit=month' +
      '&order_interval_frequency=1&next_charge_scheduled_at=2099-03-01';
    expectStatus(await subscribe(plan, { 'idempotency-key': 'sub-once' }), 200);
    expectStatus(await subscribe(plan, { 'idempotency-key': 'sub-once' }), 200);
    expectStatus(await subscribe(`${plan}&quantity=2`, { 'idempotency-key': 'sub-once' }), 409);
    expectStatus(await subscribe('address_id=500&shop_variant_id=11'), 400);

    // The customer's pages: a link from the context, opened (HTML), confirmed, refused as JSON, tampered with.
    const link = new URL(context.json().data.service_reactivate_all_link as string);
    const live = new URL(
      (await get(`/api/v1/billing/reactivate?key=${priv}&billing_customer_id=100&request_type=live`)).json().data
        .service_reactivate_all_link,
    );
    const page = await get(`${link.pathname}${link.search}`, { accept: 'text/html' });
    expectStatus(page, 200);
    expectStatus(await get(`${link.pathname}${link.search}`, { accept: 'application/json' }), 406);
    expectStatus(await get(`${link.pathname}${link.search}x`, { accept: 'text/html' }), 403);
    expectStatus(
      await app.inject({
        method: 'POST',
        url: `${live.pathname}${live.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      }),
      200,
    );
    expectStatus(
      await app.inject({
        method: 'POST',
        url: `${live.pathname}${live.search}x`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      }),
      403,
    );
    expectValid();
  });

  it('admin: shops, keys, node, session, insights', async () => {
    expectStatus(await admin('GET', '/shops'), 200);
    expectStatus(await admin('GET', shop), 200);
    expectStatus(await admin('GET', '/shops/nobody'), 404);
    expectStatus(await admin('GET', '/shops', undefined, priv), 403);
    expectStatus(await admin('GET', '/shops', undefined, 'not-a-token'), 401);
    expectStatus(await admin('POST', '/shops', { handle: 'Bad Handle!' }), 422);
    const other = await admin('POST', '/shops', { handle: 'other', name: 'Other' });
    expectStatus(other, 201);
    expectStatus(
      await admin('PATCH', '/shops/other', { name: 'Other 2', settings: { trending_window_days: 14 } }),
      200,
    );
    expectStatus(await admin('PATCH', '/shops/other', { timezone: 'Mars/Olympus' }), 422);
    expectStatus(await admin('GET', '/shops/other/keys'), 200);
    expectStatus(await admin('GET', '/shops/other/signing-secret'), 200);
    expectStatus(await admin('GET', '/shops/other/signing-secret', undefined, priv), 404);
    expectStatus(await admin('GET', '/shops/other/signing-secret', undefined, priv), 404);
    expectStatus(await admin('POST', '/shops/other/keys/rotate'), 200);
    const prefix = (await admin('GET', '/shops/other/keys')).json().data[0].key_prefix as string;
    expectStatus(await admin('POST', '/shops/other/keys/revoke', { key_prefix: prefix }), 200);
    expectStatus(await admin('POST', '/shops/other/keys/revoke', {}), 422);
    expectStatus(await admin('GET', '/node/residency'), 200);
    expectStatus(await admin('GET', '/node/residency', undefined, priv), 403);
    expectStatus(await admin('GET', '/session'), 200);
    expectStatus(await admin('GET', '/session', undefined, priv), 200);
    expectStatus(await admin('GET', '/session', undefined, 'not-a-token'), 401);
    expectStatus(await admin('GET', '/session', undefined, 'not-a-token'), 401);
    expectStatus(await admin('GET', `${shop}/insights`), 200);
    expectStatus(await admin('GET', `${shop}/insights?days=0`), 400);
    expectValid();
  });

  it('admin: catalog imports and reads', async () => {
    expectStatus(await admin('GET', `${shop}/products`), 200);
    expectStatus(await admin('GET', `${shop}/products?query=Product&limit=2&page=2`), 200);
    expectStatus(await admin('GET', `${shop}/products?ids=3,1,77`), 200);
    expectStatus(await admin('GET', `${shop}/products?variant_ids=11,31`), 200);
    expectStatus(await admin('GET', `${shop}/products?limit=9999`), 400);
    expectStatus(await admin('GET', `${shop}/collections`), 200);
    expectStatus(await admin('GET', `${shop}/markets`), 200);
    expectStatus(await admin('PUT', `${shop}/products`, [{ id: 'x' }]), 422);
    expectStatus(await admin('PUT', `${shop}/collections`, [{ id: 1 }]), 422);
    expectStatus(await admin('PUT', `${shop}/inventory`, [{ variant_id: 0 }]), 422);
    expectStatus(await admin('PUT', `${shop}/customers`, [{}]), 422);
    expectStatus(await admin('PUT', `${shop}/markets`, [{ id: 2 }]), 422);
    expectStatus(await admin('PUT', `${shop}/orders`, [{ id: 3 }]), 422);
    expectStatus(
      await app.inject({
        method: 'PUT',
        url: `/admin/v1${shop}/products`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload: '[{',
      }),
      400,
    );
    expectStatus(
      await app.inject({
        method: 'PUT',
        url: `/admin/v1${shop}/products`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/csv' },
        payload: 'id',
      }),
      415,
    );
    const ndjson = await app.inject({
      method: 'PUT',
      url: `/admin/v1${shop}/products`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      payload: `${JSON.stringify(productInput(7))}\n`,
    });
    expectStatus(ndjson, 200);
    expectStatus(await admin('DELETE', `${shop}/products/7`), 204);
    expectStatus(await admin('DELETE', `${shop}/products/7`), 404);
    expectValid();
  });

  it('admin: billing ledger, campaigns and the billing provider', async () => {
    for (const kind of ['customers', 'addresses', 'subscriptions', 'charges']) {
      expectStatus(await admin('PUT', `${shop}/billing/${kind}`, [{ id: 'x' }]), 422);
    }
    expectStatus(
      await admin('PUT', `${shop}/billing/customers`, [{ id: 102, email: 'cy@example.com', first_name: 'Cy' }]),
      200,
    );
    const campaign = await admin('POST', `${shop}/campaigns`, { name: 'Spring', discount_code: 'SPRING' });
    expectStatus(campaign, 201);
    const id = campaign.json().campaign.id as number;
    expectStatus(await admin('POST', `${shop}/campaigns`, { name: '' }), 422);
    expectStatus(await admin('PATCH', `${shop}/campaigns/${id}`, { max_claims_per_customer: 2 }), 200);
    expectStatus(await admin('PATCH', `${shop}/campaigns/999`, { name: 'x' }), 404);
    await get(`/api/v1/billing/reactivate?key=${priv}&billing_customer_id=100&campaign_id=${id}&tk=mail1`);
    expectStatus(await admin('GET', `${shop}/campaigns`), 200);
    expectStatus(await admin('GET', `${shop}/campaigns/${id}/stats`), 200);
    expectStatus(await admin('GET', `${shop}/campaigns/999/stats`), 404);
    expectStatus(await admin('GET', `${shop}/billing/provider`), 200);
    expectStatus(await admin('PUT', `${shop}/billing/provider`, { type: 'ledger' }), 200);
    expectStatus(await admin('PUT', `${shop}/billing/provider`, { type: 'remote' }), 422);
    expectValid();
  });

  it('admin: the platform connection and privacy', async () => {
    expectStatus(await admin('GET', `${shop}/platform`), 404);
    expectStatus(
      await admin('PUT', `${shop}/platform`, {
        shop_domain: 'acme.myshopify.com',
        api_version: '2025-10',
        access_token: 'x',
        api_url: 'ftp://x',
      }),
      422,
    );
    expectStatus(await admin('POST', `${shop}/platform/sync`, { mode: 'reconcile' }), 404);
    expectStatus(await admin('DELETE', `${shop}/platform`), 404);
    expectStatus(await admin('GET', `${shop}/privacy/requests`), 200);
    expectStatus(await admin('GET', '/shops/no-such-shop/privacy/requests'), 404);
    expectStatus(await admin('POST', `${shop}/customers/424242/export`), 201);
    expectStatus(await admin('POST', `${shop}/customers/424242/export?email=x`), 400);
    expectStatus(await admin('DELETE', `${shop}/customers/424242`), 200);
    expectStatus(await admin('DELETE', `${shop}/customers/x`), 400);
    expectStatus(await admin('DELETE', '/shops/no-such-shop'), 404);
    expectValid();
  });

  it('admin: experiments, attribution and models', async () => {
    const ruleset = async (name: string, products: number[]) =>
      (
        await admin('POST', `${shop}/rulesets`, {
          name,
          rules: [{ logic: [], output: [{ type: 'product', products: products.map((p) => ({ product_id: p })) }] }],
        })
      ).json().ruleset.id as number;
    const a = await ruleset('A', [1, 2]);
    const b = await ruleset('B', [3, 4]);
    const base = `${shop}/experiments`;
    const created = await admin('POST', base, {
      name: 'A/B',
      ruleset_id: a,
      arms: [
        { name: 'A', ruleset_id: a, weight: 1 },
        { name: 'B', ruleset_id: b, weight: 1 },
      ],
    });
    expectStatus(created, 201);
    const id = created.json().experiment.id as number;
    expectStatus(
      await admin('POST', base, {
        name: 'x',
        ruleset_id: a,
        arms: [
          { name: 'A', ruleset_id: 999, weight: 1 },
          { name: 'B', ruleset_id: b, weight: 1 },
        ],
      }),
      422,
    );
    await get(`/api/v1/custom/id/${a}?key=${pub}&uuid=${UUID}`);
    await app.inject({
      method: 'POST',
      url: `/api/v1/analytics/track?key=${pub}&type=impression&uuid=${UUID}&source=ruleset:${a}&product_id=1`,
    });
    expectStatus(await admin('GET', base), 200);
    expectStatus(await admin('GET', `${base}/${id}`), 200);
    expectStatus(await admin('GET', `${base}/999`), 404);
    expectStatus(await admin('GET', `${base}/${id}/results`), 200);
    expectStatus(await admin('GET', `${base}/${id}/series`), 200);
    expectStatus(await admin('GET', `${base}/999/series`), 404);
    expectStatus(await admin('GET', `${base}/999/results`), 404);
    expectStatus(await admin('POST', `${base}/${id}/stop`, { winner: 'Z' }), 422);
    expectStatus(await admin('POST', `${base}/${id}/stop`, { winner: 'B' }), 200);
    expectStatus(await admin('GET', `${shop}/attribution`), 200);
    expectStatus(await admin('GET', `${shop}/attribution?days=0`), 400);

    const status = await admin('GET', `${shop}/models/status`);
    expectStatus(status, 200);
    // Asking starts a build: wait until it is in, so the built status is checked too.
    while ((await admin('GET', `${shop}/models/status`)).json().data === null)
      await new Promise((r) => setImmediate(r));
    expectStatus(await admin('GET', `${shop}/models/similar?product_id=1`), 200);
    expectStatus(await admin('GET', `${shop}/models/similar?product_id=1&similarity=lift&basis=customer`), 200);
    expectStatus(await admin('GET', `${shop}/models/similar`), 400);
    expectStatus(await admin('GET', '/shops/nobody/models/status'), 404);
    expectValid();
  });

  it('webhooks in each dialect', async () => {
    const storefront = (headers: (raw: string) => Record<string, string>, body: unknown = productInput(8)) => {
      const raw = JSON.stringify(body);
      return app.inject({
        method: 'POST',
        url: `/webhooks/shop/${HANDLE}`,
        payload: raw,
        headers: { 'content-type': 'application/json', ...headers(raw) },
      });
    };
    const b64 = (raw: string) => createHmac('sha256', SHOP_SECRET).update(raw).digest('base64');
    expectStatus(
      await storefront((raw) => ({
        'x-shop-topic': 'products/update',
        'x-shop-webhook-id': 'n1',
        'x-shop-hmac-sha256': b64(raw),
      })),
      200,
    );
    expectStatus(
      await storefront((raw) => ({
        'x-shopify-topic': 'products/update',
        'x-shopify-webhook-id': 'p1',
        'x-shopify-hmac-sha256': b64(raw),
      })),
      200,
    );
    expectStatus(await storefront(() => ({ 'x-shop-topic': 'products/update', 'x-shop-hmac-sha256': 'forged' })), 401);
    // The signature is checked on the raw bytes first: an unsigned body that is not JSON is a 401, a signed one a 400.
    expectStatus(
      await app.inject({
        method: 'POST',
        url: `/webhooks/shop/${HANDLE}`,
        payload: '{oops',
        headers: { 'content-type': 'application/json' },
      }),
      401,
    );
    expectStatus(
      await app.inject({
        method: 'POST',
        url: `/webhooks/shop/${HANDLE}`,
        payload: '{oops',
        headers: {
          'content-type': 'application/json',
          'x-shop-topic': 'products/update',
          'x-shop-webhook-id': 'bad-json',
          'x-shop-hmac-sha256': b64('{oops'),
        },
      }),
      400,
    );

    const billing = (headers: (raw: string) => Record<string, string>, body: unknown) => {
      const raw = JSON.stringify(body);
      return app.inject({
        method: 'POST',
        url: `/webhooks/billing/${HANDLE}`,
        payload: raw,
        headers: { 'content-type': 'application/json', ...headers(raw) },
      });
    };
    const customer = {
      customer: { id: 103, email: 'dee@example.com', first_name: 'Dee', updated_at: '2026-11-20T10:00:00+00:00' },
    };
    const hex = (raw: string) => createHmac('sha256', BILLING_SECRET).update(raw).digest('hex');
    expectStatus(
      await billing(
        (raw) => ({
          'x-billing-topic': 'customer/updated',
          'x-billing-webhook-id': 'b1',
          'x-billing-hmac-sha256': hex(raw),
        }),
        {
          id: 104,
          email: 'eve@example.com',
        },
      ),
      200,
    );
    expectStatus(
      await billing(
        (raw) => ({
          'x-recharge-topic': 'customer/updated',
          'x-recharge-hmac-sha256': createHash('sha256')
            .update(BILLING_SECRET + raw)
            .digest('hex'),
        }),
        customer,
      ),
      200,
    );
    const t = Math.floor(Date.now() / 1000);
    expectStatus(
      await billing(
        (raw) => ({
          'x-recharge-topic': 'customer/updated',
          'x-recharge-webhook-signature': `t=${t},v1=${hex(`${t}.${raw}`)}`,
        }),
        customer,
      ),
      200,
    );
    expectStatus(
      await billing(
        (raw) => ({
          'x-recharge-topic': 'shop/updated',
          'x-recharge-hmac-sha256': createHash('sha256')
            .update(BILLING_SECRET + raw)
            .digest('hex'),
        }),
        { shop: {} },
      ),
      200,
    );
    expectStatus(
      await billing(() => ({ 'x-billing-topic': 'customer/updated', 'x-billing-hmac-sha256': 'forged' }), customer),
      401,
    );
    expectValid();
  });

  it('widgets as data: the admin routes and the storefront read', async () => {
    const base = `${shop}/widgets`;
    const created = await admin('POST', base, widgetInput());
    expectStatus(created, 201);
    const id = created.json().widget.id as number;
    expectStatus(await admin('POST', base, widgetInput({ cards: 0 })), 422);
    expectStatus(await admin('GET', base), 200);
    expectStatus(await admin('GET', `${base}/${id}`), 200);
    expectStatus(await admin('GET', `${base}/999`), 404);
    expectStatus(await admin('PUT', `${base}/${id}`, widgetInput({ title: 'New' })), 200);
    expectStatus(await admin('POST', `${base}/preview`, widgetInput()), 200);
    const read = await get(`/api/v1/widgets/${id}?key=${pub}`);
    expectStatus(read, 200);
    expectStatus(await get(`/api/v1/widgets/${id}?key=${pub}`, { 'if-none-match': String(read.headers.etag) }), 304);
    expectStatus(await get(`/api/v1/widgets/999?key=${pub}`), 404);
    expectStatus(await admin('DELETE', `${base}/${id}`), 204);
    expectValid();
  });

  it('operations, widget, demo assets and the console', async () => {
    expectStatus(await get('/healthz'), 200);
    expectStatus(await get('/readyz'), 200);
    expectStatus(await get('/metrics'), 200);
    await get('/widget.js'); // 200 once the widget is built, 503 before
    await get('/widget.js', { 'accept-encoding': 'gzip', 'if-none-match': '*' });
    expectStatus(await get('/widget-demo'), 200);
    expectStatus(await get('/widget-demo?key=x'), 400);
    expectStatus(await get('/widget-demo?key=rb_pub_unknown0000000000000000000000'), 401);
    expectStatus(await get(`/widget-demo?key=${pub}&product=product-1`), 200);
    expectStatus(await get(`/widget-demo?key=${priv}`), 403);
    expectStatus(await get('/demo/images/mug.svg'), 200);
    expectStatus(await get('/demo/images/mug.png'), 404);
    await get('/console/'); // the page once built, a 503 JSON answer before
    await get('/console/index.html');
    const missing = await get('/no/such/route');
    expectStatus(missing, 404);
    expect(missing.json()).toEqual({ error: 'Route GET /no/such/route not found.', code: 'unknown_route' });
    // A long unknown path is echoed clipped, not whole.
    const long = await get(`/no/${'a/'.repeat(2000)}`);
    expectStatus(long, 404);
    expect(long.json().error).toBe(`Route GET /no/${'a/'.repeat(98)}… not found.`);
    expectValid();
  });

  it('every registered route was exercised, and every family answered a 4xx', () => {
    const registered = [...checker.routes.keys()].filter((r) => !EXCLUDED.has(r)).sort();
    const exercised = [...checker.exercised.keys()].filter((r) => !EXCLUDED.has(r)).sort();
    expect(exercised).toEqual(registered);
    const families = new Map<string, boolean>();
    for (const route of registered) {
      const statuses = [...(checker.exercised.get(route) ?? [])];
      families.set(
        familyOf(route),
        (families.get(familyOf(route)) ?? false) || statuses.some((s) => s >= 400 && s < 500),
      );
    }
    // Health, metrics, sources and the OpenAPI document take no input
    // a caller can get wrong, nor does the built console's page.
    const noInput = new Set(['operations', 'console']);
    const without = [...families].filter(([family, has]) => !has && !noInput.has(family)).map(([family]) => family);
    expect(without).toEqual([]);
    // Every route declares a response schema (non-JSON ones their content type).
    expect(registered.filter((r) => !checker.routes.get(r)?.response)).toEqual([]);
  });
});
