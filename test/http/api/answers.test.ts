import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

describe.each(backends())('cached answers on $name', (backend) => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('cache')).public;
    await t.admin('PUT', '/admin/v1/shops/cache/products', [productInput(1), productInput(2), productInput(3)]);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const get = (query: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url: `/api/v1/products/static?${query}`, headers });

  it('serves the second identical request from the cache, whatever the parameter order or key placement', async () => {
    const first = await get(`key=${key}&ids=1,2&limit=2`);
    expect(first.headers['x-cache']).toBe('miss');
    const second = await get(`limit=2&ids=1,2`, { 'x-api-key': key });
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
  });

  it('recomputes with bust_cache=yes', async () => {
    await get(`key=${key}&ids=3`);
    expect((await get(`key=${key}&ids=3&bust_cache=yes`)).headers['x-cache']).toBe('miss');
    expect((await get(`key=${key}&ids=3`)).headers['x-cache']).toBe('hit');
  });

  it("never serves an answer older than the shop's last write", async () => {
    expect((await get(`key=${key}&ids=2`)).json().data[0].title).toBe('Product 2');
    await t.admin('PUT', '/admin/v1/shops/cache/products', [productInput(2, { title: 'Renamed' })]);
    const after = await get(`key=${key}&ids=2`);
    expect(after.headers['x-cache']).toBe('miss');
    expect(after.json().data[0].title).toBe('Renamed');
  });

  it('sends the gzip bytes made once to clients that accept them', async () => {
    const plain = await get(`key=${key}&ids=1,2,3`);
    // The first answer goes out plain while its gzip form is made in the background.
    expect(plain.headers['content-encoding']).toBeUndefined();
    let zipped = plain;
    await vi.waitFor(
      async () => {
        zipped = await get(`key=${key}&ids=1,2,3`, { 'accept-encoding': 'gzip, br' });
        expect(zipped.headers['content-encoding']).toBe('gzip');
      },
      { timeout: 30_000 },
    );
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
    expect(
      (await get(`key=${key}&ids=1,2,3`, { 'accept-encoding': 'gzip;q=0' })).headers['content-encoding'],
    ).toBeUndefined();
  });

  it('does not cache errors', async () => {
    expect((await get(`key=${key}&ids=x`)).statusCode).toBe(400);
    expect((await get(`key=${key}&ids=x`)).headers['x-cache']).toBeUndefined();
  });
});
