import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const UUID = '3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b';

describe.each(backends())('request bodies with a Content-Encoding, on $name', (backend) => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('encoded')).public;
    await t.admin('PUT', '/admin/v1/shops/encoded/products', [productInput(1)]);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const fields = { subject: 'user', verb: 'viewed', noun: 'product', shop_product_handle: 'product-1', uuid: UUID };
  const post = (payload: Buffer | string, encoding?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/analytics/event?key=${key}`,
      payload,
      headers: { 'content-type': 'application/json', ...(encoding ? { 'content-encoding': encoding } : {}) },
    });

  it('refuses a compressed body with a 415 that says to send it uncompressed', async () => {
    // A gzipped JSON body answered "not valid JSON"; a plain one under a coding it does not use was read as plain.
    for (const [payload, encoding] of [
      [gzipSync(JSON.stringify(fields)), 'gzip'],
      [JSON.stringify(fields), 'x-unknown'],
      [JSON.stringify(fields), 'gzip, identity'],
    ] as const) {
      const res = await post(payload, encoding);
      expect(res.statusCode, encoding).toBe(415);
      expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
      expect(res.json().error).toContain('uncompressed');
      expect(res.headers['accept-encoding']).toBe('identity');
    }
  });

  it('reads a body labelled identity, and a request without a body whatever it says', async () => {
    expect((await post(JSON.stringify(fields), 'Identity')).statusCode).toBe(200);
    expect((await post(JSON.stringify(fields))).statusCode).toBe(200);
    const get = await t.app.inject({
      url: `/api/v1/products/static?key=${key}&ids=1`,
      headers: { 'content-encoding': 'gzip' },
    });
    expect(get.statusCode).toBe(200);
  });
});
