import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { productInput } from '../helpers/fixtures.js';

describe.each(backends())('GET /metrics on $name', (backend) => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('m')).public;
    await t.admin('PUT', '/admin/v1/shops/m/products', [productInput(1)]);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const metric = (text: string, name: string) =>
    Number(new RegExp(`^${name.replace(/[{}"[\]]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);

  it('counts requests per route and status, cache hits, events and index rebuilds', async () => {
    for (let i = 0; i < 3; i++) await t.app.inject(`/api/v1/products/static?key=${key}&ids=1`);
    await t.app.inject(`/api/v1/products/static?key=${key}&ids=x`);
    await t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${key}&subject=user&verb=viewed&noun=product` +
        '&shop_product_handle=product-1&uuid=3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b',
    });
    const res = await t.app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(metric(text, 'rebound_http_requests_total{route="/api/v1/products/static",method="GET",status="200"}')).toBe(
      3,
    );
    expect(metric(text, 'rebound_http_requests_total{route="/api/v1/products/static",method="GET",status="400"}')).toBe(
      1,
    );
    expect(text).toContain(
      'rebound_http_request_duration_seconds_bucket' +
        '{le="0.005",route="/api/v1/products/static",method="GET",status="200"}',
    );
    expect(metric(text, 'rebound_cache_hits')).toBe(2);
    expect(metric(text, 'rebound_events_committed')).toBe(1);
    expect(metric(text, 'rebound_event_buffer_depth')).toBe(0);
    expect(metric(text, 'rebound_index_rebuilds')).toBeGreaterThanOrEqual(1);
    expect(metric(text, 'rebound_db_pool_total')).toBeGreaterThanOrEqual(1);
    expect(text).toContain('process_resident_memory_bytes');
    // The shop was loaded by its first request and is the one resident shop (events never load it).
    expect(metric(text, 'rebound_shop_loads')).toBe(1);
    expect(metric(text, 'rebound_shop_snapshot_loads')).toBe(0); // a first load reads the parts
    expect(metric(text, 'rebound_shop_evictions')).toBe(0);
    expect(metric(text, 'rebound_resident_shops')).toBe(1);
    expect(metric(text, 'rebound_resident_estimated_bytes')).toBeGreaterThan(10_000);
    expect(metric(text, 'rebound_resident_allowance_bytes')).toBeGreaterThan(0);
  });

  it('lists the resident shops to the operator only', async () => {
    const res = await t.admin('GET', '/admin/v1/node/residency');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ shops: [{ handle: 'm' }], loads: 1, evictions: 0 });
    expect(res.json().estimated_bytes).toBe(res.json().shops[0].estimated_bytes);
    const shopKey = (await t.createShop('other')).private;
    expect((await t.admin('GET', '/admin/v1/node/residency', undefined, shopKey)).statusCode).toBe(403);
  });

  it('takes events for a shop without loading its catalog', async () => {
    const quiet = await t.createShop('quiet');
    const res = await t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${quiet.public}&subject=user&verb=viewed` +
        '&noun=product&shop_product_handle=x&uuid=3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b',
    });
    expect(res.statusCode).toBe(200);
    const handles = (await t.admin('GET', '/admin/v1/node/residency'))
      .json()
      .shops.map((s: { handle: string }) => s.handle);
    expect(handles).not.toContain('quiet');
    expect((await t.app.inject(`/api/v1/products/trending_products?key=${quiet.public}`)).statusCode).toBe(200);
    expect(
      (await t.admin('GET', '/admin/v1/node/residency')).json().shops.map((s: { handle: string }) => s.handle),
    ).toContain('quiet');
  });
});
