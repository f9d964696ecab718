import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const U1 = '3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b';
const U2 = '0a0b0c0d-1111-4222-8333-444455556666';

describe.each(backends())('events and viewed products on $name', (backend) => {
  let t: TestApp;
  let key: string;
  let otherKey: string;
  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('ev')).public;
    otherKey = (await t.createShop('ev-other')).public;
    await t.admin(
      'PUT',
      '/admin/v1/shops/ev/products',
      [1, 2, 3, 4, 5, 6, 7].map((id) => productInput(id)),
    );
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const post = (query: string, body?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/analytics/event?${query}`,
      headers,
      ...(body !== undefined ? { payload: body as object } : {}),
    });
  const view = (handle: string, who = `uuid=${U1}`, k = key) =>
    post(`key=${k}&subject=user&verb=viewed&noun=product&shop_product_handle=${handle}&${who}`);
  const viewed = async (query: string, path = 'viewed') => {
    const res = await t.app.inject(`/api/v1/products/${path}?key=${key}&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.map((p: { id: number }) => p.id) as number[];
  };

  it('acknowledges a stored event with {"data": "Received"}', async () => {
    const res = await view('product-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: 'Received' });
    const stored = (await t.admin('GET', `/admin/v1/shops/ev/events?uuid=${U1}`)).json().data;
    expect(stored[0]).toMatchObject({
      uuid: U1,
      subject: 'user',
      verb: 'viewed',
      noun: 'product',
      handle: 'product-1',
      customer_id: null,
    });
  });

  it('needs uuid or shop_customer_id, with the documented message', async () => {
    const res = await post(`key=${key}&subject=user&verb=viewed&noun=product&shop_product_handle=product-1`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Missing required args. You must pass either shop_customer_id or uuid.',
      code: 'missing_parameter',
      parameter: 'uuid',
    });
  });

  /** A valid add event's parameters, for the cases below to take one away or spoil. */
  const addedEvent = () =>
    new URLSearchParams({
      key,
      subject: 'user',
      verb: 'added',
      noun: 'product',
      shop_product_handle: 'product-2',
      uuid: U2,
    });

  it.each([
    ['subject', 'Missing required parameter subject (allowed value: user).'],
    ['verb', 'Missing required parameter verb (viewed, added or removed).'],
    ['noun', 'Missing required parameter noun (allowed value: product).'],
    ['shop_product_handle', 'Missing required parameter shop_product_handle: product events need the product handle.'],
  ])('reports %s absent as missing_parameter, with its message', async (name, error) => {
    const given = addedEvent();
    given.delete(name);
    const res = await post(given.toString());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error, code: 'missing_parameter', parameter: name });
  });

  it.each([
    ['subject=admin', 'subject'],
    ['subject=', 'subject'],
    ['verb=liked', 'verb'],
    ['noun=collection', 'noun'],
    ['shop_product_handle=', 'shop_product_handle'],
    ['uuid=not-a-uuid', 'uuid'],
    ['shop_customer_id=abc', 'shop_customer_id'],
    ['subject_email=nobody', 'subject_email'],
    [`theme_id=${'9'.repeat(65)}`, 'theme_id'],
  ])('refuses %s naming the parameter', async (override, param) => {
    const base = addedEvent();
    const [name, value] = override.split('=') as [string, string];
    base.set(name, value);
    const res = await post(base.toString());
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(param);
  });

  it('accepts every documented parameter, a JSON body, and a sendBeacon text body', async () => {
    const full = await post(
      `key=${key}&subject=user&verb=added&noun=product&shop_product_handle=product-2` +
        `&uuid=${U2}&shop_customer_id=77&subject_email=a@example.com&theme_id=12345`,
    );
    expect(full.json()).toEqual({ data: 'Received' });
    const json = await post(`key=${key}`, {
      subject: 'user',
      verb: 'removed',
      noun: 'product',
      shop_product_handle: 'product-2',
      shop_customer_id: 77,
    });
    expect(json.json()).toEqual({ data: 'Received' });
    const beacon = await post(
      `key=${key}`,
      JSON.stringify({ subject: 'user', verb: 'viewed', noun: 'product', shop_product_handle: 'product-3', uuid: U2 }),
      {
        'content-type': 'text/plain',
      },
    );
    expect(beacon.json()).toEqual({ data: 'Received' });
    const stored = (await t.admin('GET', '/admin/v1/shops/ev/events?shop_customer_id=77')).json().data;
    expect(stored.map((e: { verb: string }) => e.verb)).toEqual(['removed', 'added']);
    expect(stored[1]).toMatchObject({ subject_email: 'a@example.com', theme_id: '12345', uuid: U2 });
  });

  it('needs a key: missing → 400, unknown → 401', async () => {
    expect((await post(`subject=user&verb=viewed&noun=product&shop_product_handle=x&uuid=${U1}`)).statusCode).toBe(400);
    expect(
      (await post(`key=nope&subject=user&verb=viewed&noun=product&shop_product_handle=x&uuid=${U1}`)).statusCode,
    ).toBe(401);
  });

  it('reads back views: most recent first, each once, default limit 5, handles resolved when read', async () => {
    const who = `uuid=${U1.toUpperCase()}`;
    for (const h of [
      'product-4',
      'product-5',
      'product-4',
      'future-product',
      'product-6',
      'product-7',
      'product-2',
      'product-3',
    ]) {
      expect((await view(h, who)).statusCode).toBe(200);
    }
    expect(await viewed(`uuid=${U1}`)).toEqual([3, 2, 7, 6, 4]);
    expect(await viewed(`uuid=${U1}&limit=10`)).toEqual([3, 2, 7, 6, 4, 5, 1]);
    expect(await viewed(`uuid=${U1}&limit=2`, 'recently_viewed')).toEqual([3, 2]);
    // The unknown handle was kept; once the product exists it shows up in place.
    await t.admin('PUT', '/admin/v1/shops/ev/products', [productInput(8, { handle: 'future-product' })]);
    expect(await viewed(`uuid=${U1}&limit=10`)).toEqual([3, 2, 7, 6, 8, 4, 5, 1]);
  });

  it('counts a view of a handle the shop lacks for no product, whether or not the shop is in memory', async () => {
    const shopId = (await t.admin('GET', '/admin/v1/shops/ev-other')).json().shop.id;
    await t.admin('PUT', '/admin/v1/shops/ev-other/products', [productInput(1, { handle: 'counted' })]);
    const handles = async () => (await t.services.store.listEventCounts(shopId, 0)).map((c) => c.handle).sort();
    t.services.catalogIndex.evict(shopId);
    expect((await view('phantom-1', `uuid=${U1}`, otherKey)).statusCode).toBe(200);
    expect((await view('counted', `uuid=${U1}`, otherKey)).statusCode).toBe(200);
    await t.services.catalogIndex.ensure(shopId);
    expect((await view('phantom-2', `uuid=${U1}`, otherKey)).statusCode).toBe(200);
    expect(await handles()).toEqual(['counted']);
  });

  it("reads back a customer's views and applies the list filters", async () => {
    await view('product-5', 'shop_customer_id=88');
    await view('product-6', 'shop_customer_id=88');
    expect(await viewed('shop_customer_id=88')).toEqual([6, 5]);
    expect(await viewed('shop_customer_id=88&any_variant_price_less_than=5')).toEqual([]);
    const res = await t.app.inject(
      `/api/v1/products/viewed?key=${key}&shop_customer_id=88&metafields=yes&format=pretty`,
    );
    expect(res.body.startsWith('{\n  "data"')).toBe(true);
    expect(res.json().data[0].metafields).toHaveLength(1);
  });

  it('reads back a view stored by a bulk event under a session id that is not a UUID', async () => {
    const session = 'Widget-Session-7';
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/api/v2/analytics/event/bulk',
      headers: { 'x-rebuy-user-token': key },
      payload: [{ subject: 'user', verb: 'viewed', noun: 'product', uuid: session, defined_noun_id: 'product-2' }],
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    // Session ids are lower-cased where they are stored and where they are read.
    expect(await viewed(`uuid=${session}&filter_oos=no`)).toEqual([2]);
    // A view of no product is refused, naming the event, rather than acknowledged and stored as nothing.
    const noProduct = await t.app.inject({
      method: 'POST',
      url: '/api/v2/analytics/event/bulk',
      headers: { 'x-rebuy-user-token': key },
      payload: [{ subject: 'user', verb: 'viewed', noun: 'product', uuid: session }],
    });
    expect(noProduct.statusCode).toBe(400);
    expect(noProduct.json()).toMatchObject({ code: 'missing_parameter', parameter: 'events[0].shopify_product_id' });
  });

  it('refuses a viewed request without a visitor or with bad parameters', async () => {
    const res = await t.app.inject(`/api/v1/products/viewed?key=${key}`);
    expect(res.json()).toEqual({
      error: 'Missing required args. You must pass either shop_customer_id or uuid.',
      code: 'missing_parameter',
      parameter: 'uuid',
    });
    for (const [q, param] of [
      [`uuid=${'x'.repeat(101)}`, 'uuid'],
      [`uuid=${U1}&limit=0`, 'limit'],
      [`uuid=${U1}&filter_oos=maybe`, 'filter_oos'],
      ['shop_customer_id=-1', 'shop_customer_id'],
    ]) {
      const bad = await t.app.inject(`/api/v1/products/viewed?key=${key}&${q}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toContain(param);
    }
  });

  it('keeps shops apart', async () => {
    await view('product-1', `uuid=${U2}`, otherKey);
    const res = await t.app.inject(`/api/v1/products/viewed?key=${otherKey}&uuid=${U2}`);
    expect(res.json().data).toEqual([]); // the other shop has no such product
    const theirs = (await t.admin('GET', `/admin/v1/shops/ev-other/events?uuid=${U2}`)).json().data;
    expect(theirs).toHaveLength(1);
  });

  it('lists events for the admin with filters and limits', async () => {
    const all = (await t.admin('GET', '/admin/v1/shops/ev/events?limit=100000')).json().data;
    expect(all.length).toBeGreaterThan(10);
    expect(all.map((e: { id: number }) => e.id)).toEqual(
      [...all.map((e: { id: number }) => e.id)].sort((a, b) => b - a),
    );
    expect((await t.admin('GET', '/admin/v1/shops/ev/events?limit=2')).json().data).toHaveLength(2);
    expect((await t.admin('GET', '/admin/v1/shops/ev/events?limit=100001')).statusCode).toBe(400);
    expect((await t.admin('GET', '/admin/v1/shops/ev/events?limit=abc')).statusCode).toBe(400);
  });

  it('reads a long listing in pages: each event once, newest first, exactly the limit, filters kept', async () => {
    const shopId = (await t.services.store.getShopByHandle('ev-other'))!.id;
    const session = '00000000-0000-4000-8000-00000000ca9e';
    const event = (i: number) => ({
      shop_id: shopId,
      uuid: i % 2 === 0 ? session : null,
      customer_id: null,
      subject: 'user' as const,
      verb: 'viewed' as const,
      noun: 'product' as const,
      handle: `product-${i % 3}`,
      subject_email: null,
      theme_id: null,
      created_at: Date.now(),
    });
    await t.services.store.appendEvents(Array.from({ length: 4500 }, (_, i) => event(i)));
    const read = async (query: string) => {
      const res = await t.admin('GET', `/admin/v1/shops/ev-other/events?${query}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      return res.json().data as { id: number; uuid: string | null; created_at: string }[];
    };
    // Across two page boundaries (a page is 2,000 events).
    const long = await read('limit=4100');
    expect(long).toHaveLength(4100);
    const ids = long.map((e) => e.id);
    expect(new Set(ids).size).toBe(4100);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(Date.parse(long[0]!.created_at)).not.toBeNaN();
    // A session id the bulk intake took (any text, lower-cased) is a filter the listing reads the same way.
    await t.services.store.appendEvents([{ ...event(0), uuid: 'my-session-abc' }]);
    expect((await read('uuid=My-Session-ABC')).map((e) => e.uuid)).toEqual(['my-session-abc']);
    // Fewer events than the limit: all of them; a filter holds on every page.
    const theirs = await read(`uuid=${session}&limit=100000`);
    expect(theirs.length).toBe(2250);
    expect(theirs.every((e) => e.uuid === session)).toBe(true);
  });
});
