import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { seedBilling } from '../../helpers/billing.js';
import { storedRows } from '../../helpers/stored-rows.js';
import { PLATFORM_ENV, PLATFORM_WEBHOOK_SECRET, deliver } from '../../helpers/fake-platform/connect.js';
import { REDIS_URL, redisAvailable, redisScope } from '../../helpers/redis.js';
import { groupOf, routeRecorder } from '../../helpers/route-table.js';

const SESSION = 'a1a1a1a1-0000-4000-8000-00000000ada1';
const OTHER_SESSION = 'b2b2b2b2-0000-4000-8000-0000000000b2';
/** A session whose only event names its visitor by e-mail. */
const EMAIL_SESSION = 'c3c3c3c3-0000-4000-8000-0000000000c3';
/** What must not be found anywhere once customer 9100 is erased: the e-mail, the session, the billing address. */
const PERSONAL = ['ada@example.com', SESSION, '1 Main St', 'Springfield'];
const recent = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

describe.each(backends())('erasing a customer on $name', (backend) => {
  let t: TestApp;
  let keys: { public: string; private: string };
  const rec = routeRecorder();
  const redis = redisScope();
  beforeAll(async () => {
    const env = { ...PLATFORM_ENV, ...(redisAvailable() ? { REDIS_URL, REDIS_PREFIX: redis.prefix } : {}) };
    t = await startApp(backend, env, { beforeRoutes: rec.install });
    keys = await seedBilling(t, 'priv');
    await t.admin('PATCH', '/admin/v1/shops/priv', { webhook_secret: PLATFORM_WEBHOOK_SECRET });
    const put = async (path: string, body: unknown) =>
      expect((await t.admin('PUT', `/admin/v1/shops/priv/${path}`, body)).statusCode).toBe(200);
    await put('customers', [
      { id: 9100, email: 'ada@example.com', tags: ['vip'] },
      { id: 9200, email: 'carl@example.com', tags: [] },
    ]);
    await put('orders', [
      {
        id: 1,
        created_at: recent(2),
        customer: { id: 9100 },
        line_items: [{ id: 11, product_id: 1, variant_id: 11, quantity: 2, price: '10.00' }],
      },
      {
        id: 2,
        created_at: recent(1),
        customer: { id: 9200 },
        line_items: [{ id: 21, product_id: 2, variant_id: 21, quantity: 1, price: '8.50' }],
      },
    ]);
    const inject = (url: string) => t.app.inject({ method: 'POST', url });
    for (const [uuid, customer] of [
      [SESSION, '&shop_customer_id=9100'],
      [SESSION, ''],
      [OTHER_SESSION, '&shop_customer_id=9200'],
    ])
      expect(
        (
          await inject(
            `/api/v1/analytics/event?key=${keys.public}&subject=user&verb=viewed` +
              `&noun=product&shop_product_handle=product-2&uuid=${uuid}${customer}`,
          )
        ).statusCode,
      ).toBe(200);
    expect(
      (
        await inject(
          `/api/v1/analytics/track?key=${keys.public}&type=click&uuid=${SESSION}` +
            '&shop_customer_id=9100&source=list:top_sellers&product_id=1',
        )
      ).statusCode,
    ).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
    if (redisAvailable()) await redis.cleanup();
  });

  /** Every GET route of the public and admin APIs, asked about customer 9100 and their session. */
  async function everyAnswer(): Promise<string[]> {
    const bodies: string[] = [];
    const gets = rec.routes.filter(
      (r) => r.method === 'GET' && (groupOf(r) === 'public' || groupOf(r) === 'admin') && !r.url.includes('*'),
    );
    for (const route of gets) {
      const path = route.url.replace(':handle', 'priv').replace(':id', '9100').replace(':name', 'x');
      const billing = route.url.includes('/billing/');
      const query = new URLSearchParams({
        key: billing ? keys.private : keys.public,
        shop_customer_id: '9100',
        uuid: SESSION,
        billing_customer_id: '100',
        customer_id: '9100',
        shop_product_ids: '1,2',
      });
      const res = await t.app.inject({
        method: 'GET',
        url: `${path}?${query}`,
        headers: { authorization: `Bearer ${keys.private}` },
      });
      bodies.push(`${route.url} ${res.statusCode} ${res.body}`);
    }
    return bodies;
  }
  /** The shop's cached answers in Redis about customer 9100 or holding anything personal of theirs. */
  async function cachedLeaks(): Promise<string[]> {
    const client = new Redis(REDIS_URL);
    try {
      const shopId = (await t.services.store.getShopByHandle('priv'))!.id;
      const keys = await client.keys(`${redis.prefix}ans:${shopId}:*`);
      const bodies = keys.length > 0 ? await client.mget(...keys) : [];
      // An answer about the customer is keyed by their id or session: its body is what they bought or viewed.
      const about = (text: string) => [...PERSONAL, 'shop_customer_id=9100'].some((p) => text.includes(p));
      return keys.filter((key, i) => about(key) || about(bodies[i] ?? ''));
    } finally {
      client.disconnect();
    }
  }
  const stored = <T>(read: Parameters<typeof storedRows<T>>[1]) => storedRows(t.config.databaseUrl, read);
  const leaks = (bodies: string[]) =>
    bodies.filter((b) => PERSONAL.some((p) => b.includes(p))).map((b) => b.slice(0, 120));
  const topSellers = async () =>
    (await t.app.inject({ method: 'GET', url: `/api/v1/products/top_sellers?key=${keys.public}&limit=10` }))
      .json()
      .data.map((p: { id: number }) => p.id);
  const insights = async () => (await t.admin('GET', '/admin/v1/shops/priv/insights?days=30')).json().data.top_sellers;
  const lines = async () =>
    (await t.services.store.listOrderLines((await t.services.store.getShopByHandle('priv'))!.id, 0)).map((l) => [
      l.product_id,
      l.quantity,
    ]);

  it(
    "exports a data request, then erases the customer's personal " + 'data everywhere while the sales still count',
    async () => {
      expect(
        (
          await deliver(t, 'priv', 'customers/data_request', {
            shop_id: 1,
            shop_domain: 'priv.myshopify.com',
            customer: { id: 9100, email: 'ada@example.com', phone: null },
            orders_requested: [1],
            data_request: { id: 77 },
          })
        ).statusCode,
      ).toBe(200);
      const requests = (await t.admin('GET', '/admin/v1/shops/priv/privacy/requests')).json().data;
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ id: '77', kind: 'data_request', customer_id: 9100 });
      expect(requests[0].export.customer).toMatchObject({ id: 9100, email: 'ada@example.com' });
      expect(requests[0].export.orders).toHaveLength(1);
      // Their own events and their session's anonymous one: what the erasure below removes.
      expect(requests[0].export.events).toHaveLength(2);
      expect(requests[0].export.tracking).toHaveLength(1);
      expect(JSON.stringify(requests[0].export.billing_addresses)).toContain('1 Main St');
      expect(requests[0].export.billing_customers[0]).toMatchObject({ id: 100, email: 'ada@example.com' });

      const before = await everyAnswer();
      expect(leaks(before).length).toBeGreaterThan(0);
      const purchasedBefore = await t.app.inject({
        method: 'GET',
        url: `/api/v1/products/purchased?key=${keys.public}&shop_customer_id=9100`,
      });
      expect(purchasedBefore.json().data.map((p: { id: number }) => p.id)).toEqual([1]);
      const [sellers, figures, orderLines] = [await topSellers(), await insights(), await lines()];
      expect(sellers).toContain(1);
      expect(JSON.stringify(figures)).toContain('"product_id":1');
      expect(orderLines).toContainEqual([1, 2]);

      // Answers are written to Redis without waiting; the erasure must find them there.
      if (redisAvailable()) await vi.waitFor(async () => expect((await cachedLeaks()).length).toBeGreaterThan(0));
      const erased = await t.admin('DELETE', '/admin/v1/shops/priv/customers/9100');
      expect(erased.statusCode, erased.body).toBe(200);
      if (redisAvailable()) expect(await cachedLeaks()).toEqual([]);
      expect(erased.json().erased).toMatchObject({ customers: 1, orders: 1, billing_customers: 1, track_events: 1 });
      expect(erased.json().erased.events).toBe(2);

      expect(leaks(await everyAnswer())).toEqual([]);
      expect((await t.admin('GET', '/admin/v1/shops/priv/events?shop_customer_id=9100')).json().data).toEqual([]);
      expect((await t.admin('GET', `/admin/v1/shops/priv/events?uuid=${SESSION}`)).json().data).toEqual([]);
      expect((await t.admin('GET', `/admin/v1/shops/priv/events?uuid=${OTHER_SESSION}`)).json().data).toHaveLength(1);
      expect(
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/v1/products/purchased?key=${keys.public}&shop_customer_id=9100`,
          })
        ).json().data,
      ).toEqual([]);
      // The data request's export went with the rest; the erasure itself is listed, naming no one.
      expect((await t.admin('GET', '/admin/v1/shops/priv/privacy/requests')).json().data).toEqual([
        expect.objectContaining({ kind: 'erasure', customer_id: 9100, export: null }),
      ]);
      // Shop-wide figures still count the anonymous lines.
      expect(await topSellers()).toEqual(sellers);
      expect(await insights()).toEqual(figures);
      expect(await lines()).toEqual(orderLines);
    },
  );

  it('erases through customers/redact and lists the request without personal data', async () => {
    await deliver(t, 'priv', 'customers/redact', {
      shop_id: 1,
      shop_domain: 'priv.myshopify.com',
      customer: { id: 9200, email: 'carl@example.com', phone: null },
      orders_to_redact: [2],
    });
    const requests = (await t.admin('GET', '/admin/v1/shops/priv/privacy/requests')).json();
    expect(requests.data.filter((r: { kind: string }) => r.kind === 'redact')).toMatchObject([
      { kind: 'redact', customer_id: 9200, export: null },
    ]);
    expect(JSON.stringify(requests)).not.toContain('carl@example.com');
    expect((await t.admin('GET', `/admin/v1/shops/priv/events?uuid=${OTHER_SESSION}`)).json().data).toEqual([]);
  });

  it('reads ids as the platform writes them: "0x10" names no customer, and a long request id is not kept', async () => {
    // Read with Number(), "0x2400" was customer 9216 and "9.1e3" customer 9100.
    for (const id of ['0x2400', '9.1e3', ' ', true])
      await deliver(t, 'priv', 'customers/redact', { shop_id: 1, customer: { id }, orders_to_redact: [] });
    const listed = () => t.admin('GET', '/admin/v1/shops/priv/privacy/requests').then((r) => r.json().data);
    expect((await listed()).filter((r: { kind: string }) => r.kind === 'redact')).toHaveLength(1);
    // A 12 KB id was past what PostgreSQL indexes: the request was lost there.
    const res = await deliver(t, 'priv', 'customers/data_request', {
      shop_id: 1,
      customer: { id: 9300 },
      data_request: { id: 'r'.repeat(12_000) },
    });
    expect(res.statusCode).toBe(200);
    const requests = (await listed()).filter((r: { kind: string }) => r.kind === 'data_request');
    expect(requests).toHaveLength(1);
    expect(requests[0].id).toMatch(/^hook-/);
  });

  it('erases events naming the customer by email alone, their tags from memory, and the request body', async () => {
    const shopId = (await t.services.store.getShopByHandle('priv'))!.id;
    await t.admin('PUT', '/admin/v1/shops/priv/customers', [{ id: 9400, email: 'eve@example.com', tags: ['tag-eve'] }]);
    const created = await t.admin('POST', '/admin/v1/shops/priv/rulesets', {
      name: 'tagged',
      rules: [
        {
          name: 'tag-eve',
          logic: [{ rules: [{ type: 'customer_tag', operator: 'contains_any', value: 'tag-eve' }] }],
          output: [{ type: 'endpoint', endpoint: '/products/static?ids=2' }],
          exit_if_matched: true,
        },
        { name: 'anyone', logic: [], output: [{ type: 'endpoint', endpoint: '/products/static?ids=1' }] },
      ],
    });
    const url = `/api/v1/custom/id/${created.json().ruleset.id}?key=${keys.public}&shop_customer_id=9400`;
    const custom = async () =>
      (await t.app.inject({ method: 'GET', url })).json().data.map((p: { id: number }) => p.id);
    expect(await custom()).toEqual([2]);
    // A view sent before the visitor signed in: it names them by their email alone.
    const view = await t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${keys.public}&subject=user&verb=viewed&noun=product` +
        `&shop_product_handle=product-1&uuid=${EMAIL_SESSION}&subject_email=eve%40example.com`,
    });
    expect(view.statusCode, view.body).toBe(200);
    const sessionEvents = async () =>
      (await t.admin('GET', `/admin/v1/shops/priv/events?uuid=${EMAIL_SESSION}`)).json().data;
    expect(await sessionEvents()).toHaveLength(1);
    // The session's views, now also kept in memory for a few seconds.
    const viewed = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/v1/products/viewed?key=${keys.public}&uuid=${EMAIL_SESSION}` }))
        .json()
        .data.map((p: { id: number }) => p.id);
    expect(await viewed()).toEqual([1]);

    await deliver(t, 'priv', 'customers/redact', {
      shop_id: 1,
      customer: { id: 9400, email: 'Eve@Example.com', phone: '+15550100' },
      orders_to_redact: [],
    });
    expect(await sessionEvents()).toEqual([]);
    // Found by the e-mail alone, the session is forgotten in memory too.
    expect(await viewed()).toEqual([]);
    // The customer index in memory no longer knows their tags.
    expect(await custom()).toEqual([1]);
    // The request's own body named them: no stored webhook keeps it.
    const bodies = await stored((db) =>
      db.selectFrom('shop_webhooks').select('payload').where('shop_id', '=', shopId).execute(),
    );
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.filter((b) => /eve@example\.com|15550100/i.test(b.payload))).toEqual([]);
  });

  let rulesetId = 0;
  it('forgets a visitor an experiment arm served, though their visit was not yet written', async () => {
    const shopId = (await t.services.store.getShopByHandle('priv'))!.id;
    const session = 'd4d4d4d4-0000-4000-8000-0000000000d4';
    const ruleset = await t.admin('POST', '/admin/v1/shops/priv/rulesets', {
      name: 'arm',
      rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 1 }] }] }],
    });
    rulesetId = ruleset.json().ruleset.id as number;
    const experiment = await t.admin('POST', '/admin/v1/shops/priv/experiments', {
      name: 'erasure',
      ruleset_id: rulesetId,
      arms: [
        { name: 'A', ruleset_id: rulesetId, weight: 1 },
        { name: 'B', ruleset_id: rulesetId, weight: 1 },
      ],
    });
    expect(experiment.statusCode, experiment.body).toBe(201);
    // The session's view names the customer: the erasure finds the session by it.
    const view = await t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${keys.public}&subject=user&verb=viewed&noun=product` +
        `&shop_product_handle=product-1&uuid=${session}&shop_customer_id=9500`,
    });
    expect(view.statusCode, view.body).toBe(200);
    const served = await t.app.inject(
      `/api/v1/custom/id/${rulesetId}?key=${keys.public}&uuid=${session}&shop_customer_id=9500`,
    );
    expect(served.statusCode, served.body).toBe(200);
    // The visit is written a second later at most; the erasure comes first (unless the machine is slower).
    expect((await t.admin('DELETE', '/admin/v1/shops/priv/customers/9500')).statusCode).toBe(200);
    await t.services.exposures.flush();
    const visitors = async () => {
      const rows = await stored((db) =>
        db.selectFrom('experiment_visitors').select('visitor').where('shop_id', '=', shopId).execute(),
      );
      return rows.map((r) => r.visitor);
    };
    expect(await visitors()).not.toContain(`u:${session}`);
    // A later visit is new activity, and is recorded.
    await t.app.inject(`/api/v1/custom/id/${rulesetId}?key=${keys.public}&uuid=${session}`);
    await t.services.exposures.flush();
    expect(await visitors()).toContain(`u:${session}`);
  });

  it('deletes events past the retention daily, and the whole shop on shop/redact', async () => {
    await t.admin('PATCH', '/admin/v1/shops/priv', { settings: { event_retention_days: 1 } });
    await t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${keys.public}&subject=user&verb=viewed` +
        `&noun=product&shop_product_handle=product-1&uuid=${OTHER_SESSION}`,
    });
    const shopId = (await t.services.store.getShopByHandle('priv'))!.id;
    await t.services.store.enqueueShopWebhook(shopId, 'kept-1', 'products/delete', '{"id": 424242}');
    await t.services.storefrontSync.applyPending();
    const applied = async () =>
      (
        await stored((db) =>
          db.selectFrom('shop_webhooks').select(['webhook_id', 'payload']).where('shop_id', '=', shopId).execute(),
        )
      ).filter((w) => w.webhook_id === 'kept-1');
    // Applied: its body is gone at once, its id kept a week to know a repeat by.
    expect(await applied()).toEqual([{ webhook_id: 'kept-1', payload: '{}' }]);
    expect(await t.services.privacy.retention(Date.now() + 2 * 86_400_000)).toBeGreaterThan(0);
    expect((await t.admin('GET', '/admin/v1/shops/priv/events')).json().data).toEqual([]);
    expect(await applied()).toHaveLength(1);
    await t.services.privacy.retention(Date.now() + 8 * 86_400_000);
    expect(await applied()).toEqual([]);
    // A visit an experiment arm served just before the shop goes: not written after it either.
    expect(
      (await t.app.inject(`/api/v1/custom/id/${rulesetId}?key=${keys.public}&uuid=${OTHER_SESSION}`)).statusCode,
    ).toBe(200);
    // The shop's redact and, queued behind it in the same batch, an update of a customer: not written after.
    const queue = (id: string, topic: string, body: unknown) =>
      t.services.store.enqueueShopWebhook(shopId, id, topic, JSON.stringify(body));
    await queue('redact-1', 'shop/redact', { shop_id: 1, shop_domain: 'priv.myshopify.com' });
    await queue('late-1', 'customers/update', { id: 9990, email: 'late@example.com', tags: '' });
    await t.services.storefrontSync.applyPending();
    expect((await t.admin('GET', '/admin/v1/shops/priv')).statusCode).toBe(404);
    expect(await t.services.store.listCustomers(shopId)).toEqual([]);
    await t.services.exposures.flush();
    const rows = await stored((db) =>
      db.selectFrom('experiment_visitors').select('visitor').where('shop_id', '=', shopId).execute(),
    );
    expect(rows).toEqual([]);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/products/top_sellers?key=${keys.public}` })).statusCode,
    ).toBe(401);
  });
});
