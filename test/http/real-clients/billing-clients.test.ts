import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { TEST_SECRET_KEY, seedBilling, seedFakeProvider, switchToRemoteProvider } from '../../helpers/billing.js';
import { FakeBillingProvider } from '../../helpers/fake-billing-provider.js';
import { json } from './world.js';

/**
 * Post-purchase and customer-portal code calls billing under the platform's path, `/api/v1/recharge/…`,
 * with the platform's parameter names (docs/billing.md, "New subscriptions"). Replayed against the
 * real server, listening, on the ledger and on a remote provider.
 */
describe.each(backends())('real billing clients on $name', (backend) => {
  let t: TestApp;
  let fake: FakeBillingProvider;
  let base: string;
  let ledgerKey: string;
  let remoteKey: string;

  beforeAll(async () => {
    fake = seedFakeProvider(await new FakeBillingProvider().start());
    t = await startApp(backend, {
      REBOUND_SECRET_KEY: TEST_SECRET_KEY,
      REBOUND_ALLOW_PRIVATE_UPSTREAMS: 'true',
      REBOUND_BILLING_TIMEOUT_MS: '1000',
    });
    ledgerKey = (await seedBilling(t, 'ledger')).private;
    remoteKey = (await seedBilling(t, 'remote')).private;
    await switchToRemoteProvider(t, 'remote', fake);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
    await backend.cleanup();
  });

  /**
   * A Next.js Commerce product view (components/product/ProductView/ProductView.tsx, found in the code
   * corpus; the index does not name its repository) subscribes after purchase: URLSearchParams in the
   * query string, `POST` with no body (fetch in cors mode, and axios with `Accept: application/json`).
   */
  const subscribeQuery = (key: string, variant: string) =>
    new URLSearchParams({
      key,
      address_id: '500',
      next_charge_scheduled_at: 'tomorrow',
      quantity: '1',
      order_interval_unit: 'Month',
      order_interval_frequency: '1',
      shopify_variant_id: variant,
      charge_interval_frequency: '1',
    });

  it('creates an ACTIVE subscription on the ledger through /recharge/subscribe', async () => {
    const res = await fetch(`${base}/api/v1/recharge/subscribe?${subscribeQuery(ledgerKey, '21')}`, {
      method: 'POST',
      mode: 'cors',
    });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data).toMatchObject({
      address_id: 500,
      customer_id: 100,
      shop_variant_id: 21,
      shop_product_id: 2,
      status: 'ACTIVE',
      order_interval_unit: 'month',
    });
    expect(data.order_interval_frequency).toBe('1');
    // Above every imported subscription id, so it never overwrites one.
    expect(data.id).toBeGreaterThan(1100);
    const listed = await t.services.store.listCustomerSubscriptions(
      (await t.services.shops.requireShop('ledger')).id,
      100,
    );
    expect(listed.map((s) => s.id)).toContain(data.id);
  });

  it('keeps the widget a subscription came from as its _rebound_source, on the ledger and remotely', async () => {
    const source = { name: '_rebound_source', value: 'widget:77' };
    const query = subscribeQuery(ledgerKey, '21');
    query.set('widget_id', '77');
    const res = await fetch(`${base}/api/v1/billing/subscribe?${query}`, { method: 'POST' });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data.properties).toEqual([source]);
    const shopId = (await t.services.shops.requireShop('ledger')).id;
    const listed = await t.services.store.listCustomerSubscriptions(shopId, 100);
    expect(listed.find((s) => s.id === data.id)?.properties).toEqual([source]);
    // Without a widget, nothing is claimed.
    const plainQuery = subscribeQuery(ledgerKey, '21');
    const plain = await fetch(`${base}/api/v1/billing/subscribe?${plainQuery}`, { method: 'POST' });
    expect((await json(plain)).data.properties).toEqual([]);

    fake.received.length = 0;
    const remote = subscribeQuery(remoteKey, '11');
    remote.set('widget_id', '77');
    expect((await fetch(`${base}/api/v1/billing/subscribe?${remote}`, { method: 'POST' })).status).toBe(200);
    const posted = fake.received.find((r) => r.method === 'POST' && r.path === '/subscriptions');
    expect((posted!.body as { properties: unknown[] }).properties).toContainEqual(source);
  });

  it('makes retries with one Idempotency-Key safe, as onetime does', async () => {
    const send = (variant: string) =>
      fetch(`${base}/api/v1/billing/subscribe?${subscribeQuery(ledgerKey, variant)}`, {
        method: 'POST',
        headers: { Accept: 'application/json', 'Idempotency-Key': 'post-purchase-1' },
      });
    const first = await send('11');
    const again = await send('11');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await json(again)).data.id).toBe((await json(first)).data.id);
    expect((await send('12')).status).toBe(409);
  });

  it('refuses what it cannot read, naming the parameter', async () => {
    const query = subscribeQuery(ledgerKey, '11');
    query.set('order_interval_unit', 'fortnight');
    const res = await fetch(`${base}/api/v1/recharge/subscribe?${query}`, { method: 'POST' });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toContain('order_interval_unit');
    const withoutFrequency = subscribeQuery(ledgerKey, '11');
    withoutFrequency.delete('order_interval_frequency');
    const missing = await fetch(`${base}/api/v1/recharge/subscribe?${withoutFrequency}`, { method: 'POST' });
    expect(missing.status).toBe(400);
    expect(await json(missing)).toMatchObject({ code: 'missing_parameter', parameter: 'order_interval_frequency' });
  });

  /**
   * A headless helper (princekamboj7500/recharge_app, subscription.php) creates subscriptions with
   * the provider's own `POST /subscriptions` and these fields: on a remote provider Rebound sends the same.
   */
  it('creates the subscription with POST /subscriptions on a remote provider', async () => {
    fake.received.length = 0;
    const query = subscribeQuery(remoteKey, '11');
    query.set('order_interval_unit', 'weeks');
    query.set('order_interval_frequency', '2');
    query.delete('charge_interval_frequency');
    const res = await fetch(`${base}/api/v1/recharge/subscribe?${query}`, {
      method: 'POST',
      headers: { 'Idempotency-Key': 'remote-1' },
    });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data).toMatchObject({
      address_id: 500,
      shop_variant_id: 11,
      status: 'ACTIVE',
      order_interval_unit: 'week',
      charge_interval_frequency: '2',
    });
    const posts = fake.received.filter((r) => r.method === 'POST' && r.path === '/subscriptions');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toMatchObject({
      address_id: 500,
      order_interval_unit: 'week',
      order_interval_frequency: 2,
      charge_interval_frequency: 2,
      quantity: 1,
      external_variant_id: { ecommerce: '11' },
    });
    // A retry with the key is answered from the first one: the provider is not asked again.
    const again = await fetch(`${base}/api/v1/recharge/subscribe?${query}`, {
      method: 'POST',
      headers: { 'Idempotency-Key': 'remote-1' },
    });
    expect((await json(again)).data.id).toBe(data.id);
    expect(fake.received.filter((r) => r.method === 'POST' && r.path === '/subscriptions')).toHaveLength(1);
  });

  it('creates one subscription when the answer to POST /subscriptions is lost', async () => {
    fake.received.length = 0;
    fake.fail(/^POST \/subscriptions$/, { kind: 'drop', apply: true });
    const before = fake.subscriptions.size;
    const res = await fetch(`${base}/api/v1/billing/subscribe?${subscribeQuery(remoteKey, '12')}`, {
      method: 'POST',
      headers: { 'Idempotency-Key': 'lost-1' },
    });
    expect(res.status).toBe(200);
    expect(fake.subscriptions.size).toBe(before + 1);
  });

  /**
   * Another headless helper (HDDzenana/rc_jenny, onetime.php) adds one-time purchases with the
   * provider's `POST /onetimes`; through Rebound's /recharge/onetime a remote provider gets the same fields.
   */
  it('adds a one-time purchase with POST /onetimes on a remote provider', async () => {
    fake.received.length = 0;
    const query = `key=${remoteKey}&address_id=500&shopify_variant_id=21&next_charge_scheduled_at=tomorrow`;
    const res = await fetch(`${base}/api/v1/recharge/onetime?${query}&widget_id=77`, {
      method: 'POST',
    });
    expect(res.status).toBe(201);
    const posts = fake.received.filter((r) => r.method === 'POST' && r.path === '/onetimes');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toMatchObject({ address_id: 500, quantity: 1, external_variant_id: { ecommerce: '21' } });
    const source = { name: '_rebound_source', value: 'widget:77' };
    expect((posts[0]!.body as { properties: unknown[] }).properties).toContainEqual(source);
    expect((await json(res)).data.onetime.properties).toContainEqual(source);
    expect(posts[0]!.body?.next_charge_scheduled_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  // The reactivation context and a one-time purchase, by the platform's names and paths (issue #22's portal code).
  it('reads /recharge/reactivate with recharge_ names, and onetime with widget_id', async () => {
    const context = await fetch(
      `${base}/api/v1/recharge/reactivate?key=${ledgerKey}&recharge_customer_id=100&recharge_subscription_ids=all`,
    );
    expect(context.status).toBe(200);
    expect((await json(context)).data.billing_customer.id).toBe(100);
    const onetime = await fetch(
      `${base}/api/v1/recharge/onetime?key=${ledgerKey}&address_id=500&shopify_variant_id=21&widget_id=77`,
      { method: 'POST' },
    );
    expect(onetime.status).toBe(201);
    const { data } = await json(onetime);
    expect(data.onetime.shop_variant_id).toBe(21);
    // Kept for attribution, under the source the widget's events carry.
    expect(data.onetime.properties).toEqual([{ name: '_rebound_source', value: 'widget:77' }]);
    const plainQuery = `key=${ledgerKey}&address_id=500&shopify_variant_id=21`;
    const plain = await fetch(`${base}/api/v1/recharge/onetime?${plainQuery}`, { method: 'POST' });
    expect((await json(plain)).data.onetime.properties).toEqual([]);
  });
});
