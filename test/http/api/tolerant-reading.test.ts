import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const UUID = '3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b';

/**
 * Real storefront requests, as jQuery, sendBeacon, fetch with
 * FormData and mail tools send them (docs/api.md, "Request bodies").
 */
describe.each(backends())('storefront requests as they come, on $name', (backend) => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('tolerant', { scopes: ['read_markets'] })).public;
    await t.admin('PUT', '/admin/v1/shops/tolerant/products', [
      productInput(1),
      productInput(2),
      productInput(3, {
        variants: [
          { id: 31, price: '5.00', inventory_management: 'shop', inventory_policy: 'deny', inventory_quantity: 0 },
        ],
      }),
    ]);
    await t.admin('PUT', '/admin/v1/shops/tolerant/markets', [
      { id: 1, name: 'EU', countries: ['DE', 'FR'], currency: 'EUR', price_adjustment_percent: 10 },
    ]);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const event = `subject=user&verb=viewed&noun=product&shop_product_handle=product-1&uuid=${UUID}`;
  const post = (payload: string | Buffer | undefined, contentType: string | undefined, query = `key=${key}&${event}`) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/analytics/event?${query}`,
      ...(payload !== undefined ? { payload } : {}),
      headers: contentType ? { 'content-type': contentType } : {},
    });

  it(
    'takes the event intake with no body, an empty JSON body, a ' + 'form, text/plain, multipart or any other body',
    async () => {
      const boundary = '----rebound';
      const multipart =
        `--${boundary}\r\nContent-Disposition: form-data; name="theme_id"\r\n\r\n` + `42\r\n--${boundary}--\r\n`;
      for (const [payload, type] of [
        [undefined, undefined],
        ['', 'application/json'],
        ['{}', 'application/json'],
        ['', 'application/x-www-form-urlencoded'],
        ['theme_id=7', 'application/x-www-form-urlencoded'],
        ['ping', 'text/plain;charset=UTF-8'],
        ['{"theme_id":"9"}', 'text/plain'],
        [multipart, `multipart/form-data; boundary=${boundary}`],
        ['<xml/>', 'application/xml'],
      ] as const) {
        const res = await post(payload, type);
        expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
        expect(res.json()).toEqual({ data: 'Received' });
      }
    },
  );

  it('reads form, JSON and text/plain fields under the query string, the query string winning', async () => {
    const session = '11111111-2222-4333-8444-555555555555';
    const form = `subject=user&verb=viewed&noun=product&shop_product_handle=product-2&uuid=${session}`;
    expect((await post(form, 'application/x-www-form-urlencoded', `key=${key}`)).statusCode).toBe(200);
    const json = JSON.stringify({
      subject: 'user',
      verb: 'viewed',
      noun: 'product',
      shop_product_handle: 'product-3',
      uuid: session,
    });
    expect((await post(json, 'text/plain', `key=${key}`)).statusCode).toBe(200);
    expect(
      (
        await post(
          form.replace('product-2', 'product-1'),
          'application/x-www-form-urlencoded',
          `key=${key}&shop_product_handle=product-2`,
        )
      ).statusCode,
    ).toBe(200);
    const viewed = await t.app.inject(`/api/v1/products/viewed?key=${key}&uuid=${session}&filter_oos=no`);
    expect(viewed.json().data.map((p: { id: number }) => p.id)).toEqual([2, 3]);
  });

  it('refuses only a body that claims JSON and is not JSON, naming what is wrong', async () => {
    const res = await post('{"subject":', 'application/json');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/not valid JSON/);
    // A structured JSON type (RFC 6839) claims JSON too: read as JSON, not ignored.
    const structured = await post('{"subject":', 'application/vnd.api+json; charset=utf-8');
    expect(structured.statusCode).toBe(400);
    expect(structured.json().error).toMatch(/not valid JSON/);
    const fields = JSON.stringify({
      subject: 'user',
      verb: 'viewed',
      noun: 'product',
      shop_product_handle: 'product-1',
      uuid: '11111111-2222-4333-8444-555555555555',
    });
    const read = await post(fields, 'application/vnd.api+json', `key=${key}`);
    expect(read.statusCode, read.body).toBe(200);
    const missing = await post('verb=viewed', 'application/x-www-form-urlencoded', `key=${key}`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/^Missing required parameter/);
  });

  it('reads a JSON list as the comma list of the query string; a form field given twice is still refused', async () => {
    const { ruleset } = (
      await t.admin('POST', '/admin/v1/shops/tolerant/rulesets', {
        name: 'inputs',
        rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/static?ids=1,2,3' }] }],
      })
    ).json();
    const custom = (payload: string, type: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/custom/id/${ruleset.id}?key=${key}&filter_oos=no`,
        payload,
        headers: { 'content-type': type },
      });
    const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((p) => p.id);
    const listed = await custom(JSON.stringify({ shop_product_ids: [2, '3'] }), 'application/json');
    expect(listed.statusCode, listed.body).toBe(200);
    // The inputs are filtered out of the answer (filter_input_products), as when sent as shop_product_ids=2,3.
    expect(ids(listed)).toEqual([1]);
    const asText = await custom(JSON.stringify({ shop_product_ids: '2,3' }), 'application/json');
    expect(ids(asText)).toEqual(ids(listed));
    const repeated = await custom('shop_product_ids=1&shop_product_ids=2', 'application/x-www-form-urlencoded');
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json()).toMatchObject({ parameter: 'shop_product_ids', error: expect.stringContaining('once') });
    const nested = await custom(JSON.stringify({ shop_product_ids: { first: 1 } }), 'application/json');
    expect(nested.json()).toMatchObject({ parameter: 'shop_product_ids', error: expect.stringContaining('object') });
  });

  it('refuses a JSON body that is not an object, rather than answering as if there were none', async () => {
    const { ruleset } = (
      await t.admin('POST', '/admin/v1/shops/tolerant/rulesets', {
        name: 'bodies',
        rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/static?ids=1,2,3' }] }],
      })
    ).json();
    const custom = (payload: string, type = 'application/json') =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/custom/id/${ruleset.id}?key=${key}`,
        payload,
        headers: { 'content-type': type },
      });
    for (const payload of ['[{"limit": 1}]', '"limit=1"', '3', 'true']) {
      const refused = await custom(payload);
      expect(refused.statusCode, payload).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'invalid_body', error: expect.stringContaining('JSON object') });
    }
    // No parameters at all is still no body: `null`, an empty body, and a beacon's text that is not an object.
    for (const [payload, type] of [['null'], [''], ['[1]', 'text/plain']] as [string, string?][])
      expect((await custom(payload, type)).statusCode, payload).toBe(200);
  });

  it('refuses a key sent twice, as a list or as a number in the body as invalid, not as missing', async () => {
    const custom = (payload: string, type: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/custom/id/1', payload, headers: { 'content-type': type } });
    for (const [payload, type] of [
      [`key=${key}&key=${key}`, 'application/x-www-form-urlencoded'],
      [JSON.stringify({ key: [key] }), 'application/json'],
      [JSON.stringify({ key: 7 }), 'application/json'],
    ] as const) {
      const res = await custom(payload, type);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json(), payload).toMatchObject({ code: 'invalid_parameter', parameter: 'key' });
    }
    // Spelled as a list in the query string, as any declared parameter so spelled.
    const listed = await t.app.inject(`/api/v1/products/top_sellers?limit=1&key[]=${key}`);
    expect(listed.json()).toMatchObject({ code: 'invalid_parameter', parameter: 'key' });
    expect(listed.json().error).toContain('key[]= is not read');
    // Absent, it is missing.
    const absent = await custom('{}', 'application/json');
    expect(absent.json()).toMatchObject({ code: 'missing_parameter', parameter: 'key' });
  });

  it('refuses a multipart body it cannot read with a 400, and a field past the size limit naming it', async () => {
    const boundary = '----rebound';
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const multipart = `multipart/form-data; boundary=${boundary}`;
    // No boundary, a body that is not multipart, a part cut short: the body's fault, never the server's.
    for (const [payload, type] of [
      ['', 'multipart/form-data'],
      ['garbage', multipart],
      [`--${boundary}\r\nContent-Disposition: form-data; name="theme_id"\r\n\r\n4`, multipart],
    ] as const) {
      const res = await post(payload, type);
      expect(res.statusCode, `${type} ${payload}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_body', error: expect.stringMatching(/^The multipart body/) });
    }
    // A field longer than the limit is refused, not read shortened; one at the limit is read.
    const long = await post(`${part('note', 'x'.repeat(8 * 1024 + 1))}--${boundary}--\r\n`, multipart);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'invalid_parameter', parameter: 'note' });
    const fits = await post(`${part('note', 'x'.repeat(8 * 1024))}--${boundary}--\r\n`, multipart);
    expect(fits.statusCode, fits.body).toBe(200);
    // Fields of the body join the parameters, a name given twice as a list.
    const session = '21111111-2222-4333-8444-555555555555';
    const fields = [
      part('subject', 'user'),
      part('verb', 'viewed'),
      part('noun', 'product'),
      part('shop_product_handle', 'product-2'),
      part('uuid', session),
    ].join('');
    expect((await post(`${fields}--${boundary}--\r\n`, multipart, `key=${key}`)).statusCode).toBe(200);
    const viewed = await t.app.inject(`/api/v1/products/viewed?key=${key}&uuid=${session}&filter_oos=no`);
    expect(viewed.json().data.map((p: { id: number }) => p.id)).toEqual([2]);
  });

  it('reads filter_oos=true and other spellings of the flags', async () => {
    const ids = async (query: string) =>
      (await t.app.inject(`/api/v1/products/static?key=${key}&ids=1,2,3&${query}`))
        .json()
        .data.map((p: { id: number }) => p.id);
    expect(await ids('filter_oos=true')).toEqual([1, 2]);
    expect(await ids('filter_oos=FALSE')).toEqual([1, 2, 3]);
    expect(await ids('filter_oos=0')).toEqual([1, 2, 3]);
  });

  it('serves a request with unknown parameters from the cache of the same request without them', async () => {
    const url = `/api/v1/products/static?key=${key}&ids=1,2`;
    expect((await t.app.inject(url)).headers['x-cache']).toBe('miss');
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject(`${url}&x=${Math.random().toString(36).slice(2)}&utm_source=mail`);
      expect(res.headers['x-cache']).toBe('hit');
    }
    expect((await t.app.inject(`${url}&metafields=no&limit=5&filter_oos=YES`)).headers['x-cache']).toBe('hit');
  });

  it('reads the deprecated presentment_prices as the first active market with that currency', async () => {
    const price = async (query: string) =>
      (await t.app.inject(`/api/v1/products/static?key=${key}&ids=1&${query}`)).json().data[0].variants[0].price;
    expect(await price('')).toBe('10.00');
    expect(await price('presentment_prices=eur')).toBe('11.00');
    expect(await price('country_code=DE')).toBe('11.00');
    expect(await price('presentment_prices=JPY')).toBe('10.00'); // no such market: base prices, no error
    const bad = await t.app.inject(`/api/v1/products/static?key=${key}&ids=1&presentment_prices=euro`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('presentment_prices');
  });
});
