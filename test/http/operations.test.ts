import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { compose } from '../../src/compose.js';
import { buildApp } from '../../src/http/app.js';
import { loggerOptions } from '../../src/http/plugins/logging.js';
import { backends } from '../helpers/backends.js';
import { ADMIN_TOKEN, startApp, type TestApp } from '../helpers/app.js';
import { productInput } from '../helpers/fixtures.js';

describe('operations endpoints', () => {
  const [backend] = backends();
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(backend!);
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  it('answers liveness and readiness', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject('/readyz')).json()).toEqual({ status: 'ready' });
  });

  it('serves an OpenAPI document generated from the route schemas', async () => {
    const res = await t.app.inject('/api/v1/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const staticOp = doc.paths['/api/v1/products/static'].get;
    const params = staticOp.parameters.map((p: { name: string }) => p.name);
    // The key is named by the operation's security (query `key` or X-Api-Key), not as a parameter.
    expect(staticOp.security).toEqual([{ apiKey: [] }, { apiKeyHeader: [] }]);
    for (const name of [
      'ids',
      'handles',
      'format',
      'metafields',
      'variant_metafields',
      'bust_cache',
      'limit',
      'country_code',
      'filter_oos',
      'unset_variants',
      'any_variant_price_less_than',
    ]) {
      expect(params).toContain(name);
    }
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/custom/id/{ruleset_id}',
        '/api/v1/products/trending_products',
        '/api/v1/products/collections',
        '/api/v1/products/search',
        '/api/v1/products/top_sellers',
        '/api/v1/products/recommended',
        '/api/v1/products/similar_products',
        '/api/v1/products/purchased',
        '/api/v1/products/viewed',
        '/api/v1/products/recently_viewed',
        '/api/v1/analytics/event',
        '/api/v1/sources',
        '/admin/v1/rule-catalog',
        '/admin/v1/shops/{handle}/rulesets',
        '/admin/v1/shops/{handle}/rulesets/{id}',
        '/admin/v1/shops/{handle}/rulesets/{id}/preview',
        '/admin/v1/shops/{handle}/events',
        '/admin/v1/shops',
        '/admin/v1/shops/{handle}',
        '/admin/v1/shops/{handle}/keys/rotate',
        '/admin/v1/shops/{handle}/products',
        '/admin/v1/shops/{handle}/products/{id}',
        '/admin/v1/shops/{handle}/collections',
        '/admin/v1/shops/{handle}/inventory',
        '/admin/v1/shops/{handle}/customers',
        '/admin/v1/shops/{handle}/markets',
        '/admin/v1/shops/{handle}/orders',
        '/admin/v1/session',
        '/admin/v1/shops/{handle}/campaigns',
        '/admin/v1/shops/{handle}/insights',
      ]),
    );
    // The merchant console's endpoints, with their parameters and answers from the route schemas.
    const names = (op: { parameters?: { name: string }[] }) => (op.parameters ?? []).map((p) => p.name);
    expect(names(doc.paths['/admin/v1/shops/{handle}/products'].get)).toEqual(
      expect.arrayContaining(['query', 'limit', 'page', 'ids']),
    );
    expect(names(doc.paths['/admin/v1/shops/{handle}/insights'].get)).toEqual(
      expect.arrayContaining(['handle', 'days']),
    );
    const insights =
      doc.paths['/admin/v1/shops/{handle}/insights'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(insights.properties.data.properties)).toEqual([
      'days',
      'currency',
      'trending',
      'top_sellers',
      'events_per_day',
      'conversion',
    ]);
    const session = doc.paths['/admin/v1/session'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(session.properties)).toEqual(['operator', 'shops', 'can_store_tokens']);
    expect(session.properties.shops.items.properties).not.toHaveProperty('signing_secret');
    expect(
      doc.paths['/admin/v1/shops/{handle}/campaigns'].get.responses['200'].content['application/json'].schema.properties
        .data.items.properties.stats,
    ).toBeDefined();
    expect(doc.paths['/admin/v1/shops/{handle}/campaigns'].post).toBeDefined();
    const docs = await t.app.inject('/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
    expect(docs.headers['content-security-policy']).toContain("default-src 'self'");
    expect(docs.headers['x-frame-options']).toBe('DENY');
    expect(docs.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await t.app.inject('/api/v1/nothing-here?key=x');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Route GET /api/v1/nothing-here not found.', code: 'unknown_route' });
  });

  it('draws demo placeholder images and refuses other names', async () => {
    const res = await t.app.inject('/demo/images/7000000001-1.svg');
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body).toContain('<svg');
    expect((await t.app.inject('/demo/images/..%2Fetc%2Fpasswd')).statusCode).toBe(404);
  });
});

describe('logs', () => {
  it('never contain keys, tokens or emails', async () => {
    const [backend] = backends();
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({
      DATABASE_URL: await backend!.url(),
      REBOUND_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'info',
    });
    const services = await compose(config);
    const app = await buildApp(services, config, { logger: { ...(loggerOptions('info') as object), stream: sink } });
    const created = await app.inject({
      method: 'POST',
      url: '/admin/v1/shops',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { handle: 'logs', name: 'Logs' },
    });
    const { public: pub, private: priv } = created.json().keys;
    await app.inject({
      method: 'PUT',
      url: '/admin/v1/shops/logs/products',
      headers: { authorization: `Bearer ${priv}` },
      payload: [productInput(1)],
    });
    await app.inject({
      method: 'GET',
      url: `/api/v1/products/static?ids=1&key=${pub}&subject_email=someone@example.com`,
    });
    await app.inject({ method: 'GET', url: '/api/v1/products/static?ids=1', headers: { 'x-api-key': pub } });
    // Keys under names no route reads, as misconfigured clients send them.
    await app.inject({ url: `/api/v1/products/trending_products?key[]=${pub}` });
    await app.inject({ url: `/api/v1/billing/reactivate?private_key=${priv}&billing_customer_id=1` });
    await app.inject({ url: `/api/v1/products/top_sellers?k=${encodeURIComponent(pub)}&ids=1` });
    // A key pasted into another value, or sent as a bare word.
    await app.inject({ url: `/api/v1/products/top_sellers?key=${pub}&limit=abc${priv}` });
    await app.inject({ url: `/api/v1/products/top_sellers?${priv}&ids=2` });
    await app.inject({ url: `/admin/v1/shops?admin_token=${ADMIN_TOKEN}` });
    await app.inject({
      method: 'PATCH',
      url: '/admin/v1/shops/logs',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { webhook_secret: 'webhook-secret-never-logged-123' },
    });
    await app.inject({
      method: 'PUT',
      url: '/admin/v1/shops/logs/billing/customers',
      headers: { authorization: `Bearer ${priv}` },
      payload: [{ id: 5, email: 'subscriber@example.com' }],
    });
    const context = await app.inject({
      url: `/api/v1/billing/reactivate?key=${priv}&billing_customer_id=5&request_type=live`,
    });
    const link = context.json().data.service_reactivate_all_link as string;
    await app.inject({ url: new URL(link).pathname + new URL(link).search });
    await app.inject({ url: `/api/v1/billing/reactivate?key=${priv}&billing_customer_id=x` });
    const signingSecret = (await services.store.getShopByHandle('logs'))!.signing_secret;
    const log = lines.join('');
    await app.close();
    await services.close();
    await backend!.cleanup();
    expect(log).toContain('/api/v1/products/static?ids=1&key=[redacted]');
    // A request's closing line names its shop (by handle), for an operator of many.
    const completed = lines.map((line) => JSON.parse(line)).filter((l) => l.msg === 'request completed');
    expect(completed.some((l) => l.res?.shop === 'logs' && l.res.statusCode === 200)).toBe(true);
    expect(log).toContain('/billing/reactivate?merchant_token=[redacted]');
    expect(log).toContain('/api/v1/products/trending_products?key[]=[redacted]');
    expect(log).toContain('/admin/v1/shops?admin_token=[redacted]');
    expect(log).toContain('/api/v1/products/top_sellers?k=[redacted]&ids=1');
    expect(log).toContain('/api/v1/products/top_sellers?key=[redacted]&limit=[redacted]');
    expect(log).toContain('/api/v1/products/top_sellers?[redacted]&ids=2');
    for (const secret of [
      pub,
      priv,
      ADMIN_TOKEN,
      'someone@example.com',
      'subscriber@example.com',
      'webhook-secret-never-logged-123',
      signingSecret,
      new URL(link).searchParams.get('sig')!,
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});
