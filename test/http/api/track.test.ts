import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';

const U = '3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b';
const SOURCE = 'list:trending_products';

describe.each(backends())('POST /api/v1/analytics/track on $name', (backend) => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('trk')).public;
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const post = (query: string, payload?: string | object, type?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/analytics/track?key=${key}&${query}`,
      ...(payload !== undefined ? { payload } : {}),
      ...(type ? { headers: { 'content-type': type } } : {}),
    });
  const tracked = async () =>
    (await t.admin('GET', '/admin/v1/shops/trk/attribution?days=3'))
      .json()
      .lists.find((l: { list: string }) => l.list === 'trending_products') ?? {
      impressions: 0,
      clicks: 0,
      add_to_carts: 0,
    };

  it('stores one event from the query string and answers only once it is stored', async () => {
    const res = await post(`type=impression&uuid=${U}&source=${SOURCE}&product_id=3`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: 'Received', accepted: 1 });
    expect(await tracked()).toMatchObject({ impressions: 1 });
  });

  it('refuses an event time before 2000 or more than a day ahead, naming it', async () => {
    const hour = 60 * 60 * 1000;
    // Another list than the one the other cases count.
    const ELSEWHERE = 'list:similar_products';
    for (const at of [
      '0',
      '8640000000000000',
      new Date(Date.now() + 48 * hour).toISOString(),
      '1999-12-31T23:59:59Z',
    ]) {
      const res = await post(`type=impression&uuid=${U}&source=${ELSEWHERE}&product_id=4&at=${encodeURIComponent(at)}`);
      expect(res.statusCode, at).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_parameter', parameter: 'at' });
    }
    // A client's clock an hour ahead, or an event queued offline a month ago, is kept.
    for (const at of [new Date(Date.now() + hour), new Date(Date.now() - 30 * 24 * hour)]) {
      const res = await post(`type=impression&uuid=${U}&source=${ELSEWHERE}&product_id=4&at=${at.toISOString()}`);
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('takes many events as {"events": [...]}, as JSON or as a beacon\'s text/plain', async () => {
    const events = [
      { type: 'click', uuid: U, source: SOURCE, product_id: 3 },
      {
        type: 'add_to_cart',
        shop_customer_id: 7,
        source: SOURCE,
        product_id: 3,
        variant_id: 31,
        at: new Date().toISOString(),
      },
    ];
    expect((await post('', { events })).json()).toEqual({ data: 'Received', accepted: 2 });
    // Other products: a repeat of the same (visitor, source, product, type, day) would not count again.
    const others = events.map((e) => ({ ...e, product_id: 5 }));
    expect((await post('', JSON.stringify({ events: others }), 'text/plain;charset=UTF-8')).json()).toEqual({
      data: 'Received',
      accepted: 2,
    });
    expect(await tracked()).toMatchObject({ impressions: 1, clicks: 2, add_to_carts: 2 });
    // An event in the query string beside events in the body: refused, not one of them dropped.
    const both = await post(`&type=impression&uuid=${U}&source=${SOURCE}&product_id=6`, {
      events: [{ type: 'click', uuid: U, source: SOURCE, product_id: 6 }],
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toContain('events');
    expect(await tracked()).toMatchObject({ impressions: 1, clicks: 2, add_to_carts: 2 });
  });

  it('reads form-encoded and multipart fields under the query string, and ignores other bodies', async () => {
    expect(
      (await post(`uuid=${U}`, `type=click&source=${SOURCE}&product_id=4`, 'application/x-www-form-urlencoded')).json(),
    ).toEqual({
      data: 'Received',
      accepted: 1,
    });
    const boundary = 'XbOuNdArY';
    const multipart = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="type"',
      '',
      'impression',
      `--${boundary}`,
      'Content-Disposition: form-data; name="source"',
      '',
      SOURCE,
      `--${boundary}--`,
      '',
    ].join('\r\n');
    expect((await post(`uuid=${U}`, multipart, `multipart/form-data; boundary=${boundary}`)).json()).toEqual({
      data: 'Received',
      accepted: 1,
    });
    expect((await post(`type=click&uuid=${U}&source=${SOURCE}`, 'hello', 'application/octet-stream')).statusCode).toBe(
      200,
    );
    expect(await tracked()).toMatchObject({ impressions: 2, clicks: 4 });
  });

  it('refuses what it cannot store with a 400 naming the parameter', async () => {
    const cases: [string, string | object | undefined, string | undefined, string][] = [
      [`uuid=${U}`, undefined, undefined, 'type'],
      [`type=view&uuid=${U}`, undefined, undefined, 'type'],
      ['type=click', undefined, undefined, 'uuid'],
      [`type=click&uuid=${U}&at=yesterday`, undefined, undefined, 'at'],
      [`type=click&uuid=${U}&product_id=-3`, undefined, undefined, 'product_id'],
      [`type=click&uuid=${U}&source=${'x'.repeat(161)}`, undefined, undefined, 'source'],
      ['', { events: 'x' }, undefined, 'events'],
      ['', { events: [] }, undefined, 'events'],
      ['', { events: Array.from({ length: 101 }, () => ({ type: 'click', uuid: U })) }, undefined, 'events'],
      [
        '',
        {
          events: [
            { type: 'click', uuid: U },
            { type: 'hover', uuid: U },
          ],
        },
        undefined,
        'events[1].type',
      ],
      ['', { events: [{ type: 'click' }] }, undefined, 'events[0]'],
      ['', { events: [7] }, undefined, 'events[0]'],
      ['', '{"events": [', 'application/json', ''],
    ];
    for (const [query, body, type, param] of cases) {
      const res = await post(query, body, type);
      expect(res.statusCode, `${query} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().error).toContain(param);
    }
    const inBody = await post('', { events: [{ type: 'click', uuid: U }, { type: 'click' }] });
    expect(inBody.json()).toEqual({
      error: 'events[1]: Missing required args. You must pass either shop_customer_id or uuid.',
      code: 'missing_parameter',
      parameter: 'events[1].uuid',
    });
    const missing = await post('type=click');
    expect(missing.json()).toEqual({
      error: 'Missing required args. You must pass either shop_customer_id or uuid.',
      code: 'missing_parameter',
      parameter: 'uuid',
    });
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/analytics/track?key=nope&type=click&uuid=${U}` })).statusCode,
    ).toBe(401);
  });
});
