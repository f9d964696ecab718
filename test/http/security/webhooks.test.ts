import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_LIMIT_PER_MINUTE } from '../../../src/http/routes/webhooks.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { seedBilling } from '../../helpers/billing.js';
import { productInput } from '../../helpers/fixtures.js';

const BILLING_SECRET = 'billing-client-secret-0123456789';
const SHOP_SECRET = 'storefront-webhook-secret-0123456789';
const sign = (raw: string) => createHmac('sha256', SHOP_SECRET).update(raw).digest('base64');
const legacy = (raw: string) =>
  createHash('sha256')
    .update(BILLING_SECRET + raw)
    .digest('hex');

/** Webhook replays (docs/api.md, "Webhooks"; docs/billing.md, "Webhooks from both platforms"), over real HTTP. */
describe.each(backends())('replayed webhooks on $name', (backend) => {
  let t: TestApp;
  let base: string;
  let shopId: number;
  let sequence = 0;
  const deliver = async (topic: string, raw: string, extra: Record<string, string> = {}) => {
    const res = await fetch(`${base}/webhooks/shop/replay`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-hmac-sha256': sign(raw),
        'x-shopify-topic': topic,
        'x-shopify-webhook-id': `wh-${++sequence}`,
        ...extra,
      },
      body: raw,
    });
    return { status: res.status, data: ((await res.json()) as { data?: string; error?: string }).data };
  };
  const product = async (id: number) => (await t.services.store.listProducts(shopId, { ids: [id] }))[0];
  const settled = async () => {
    await t.services.storefrontSync.applyPending();
  };

  beforeAll(async () => {
    t = await startApp(backend);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    shopId = (await seedBilling(t, 'replay')).id;
    await t.admin('PATCH', '/admin/v1/shops/replay', {
      billing_webhook_secret: BILLING_SECRET,
      webhook_secret: SHOP_SECRET,
    });
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it(
    'applies a */delete topic only to a delete-shaped body: a signed ' +
      'update replayed as a deletion deletes nothing',
    async () => {
      const update = JSON.stringify({ ...productInput(1, { title: 'Renamed' }), updated_at: new Date().toISOString() });
      expect(await deliver('products/update', update)).toEqual({ status: 200, data: 'queued' });
      await settled();
      expect(await deliver('products/delete', update)).toEqual({ status: 200, data: 'ignored' });
      await settled();
      expect((await product(1))?.title).toBe('Renamed');
      expect(await deliver('products/delete', JSON.stringify({ id: 2 }))).toEqual({ status: 200, data: 'queued' });
      await settled();
      expect(await product(2)).toBeUndefined();
    },
  );

  it('answers a delivery fired more than 24 hours ago with 200 and does not apply it', async () => {
    const old = JSON.stringify({
      ...productInput(1, { title: 'From last week' }),
      updated_at: new Date().toISOString(),
    });
    const stale = new Date(Date.now() - 25 * 3600 * 1000).toISOString();
    expect(await deliver('products/update', old, { 'x-shopify-triggered-at': stale })).toEqual({
      status: 200,
      data: 'ignored',
    });
    await settled();
    expect((await product(1))?.title).toBe('Renamed');
    const fresh = new Date(Date.now() - 60_000).toISOString();
    expect(await deliver('products/update', old, { 'x-shopify-triggered-at': fresh })).toEqual({
      status: 200,
      data: 'queued',
    });
  });

  it('deduplicates by X-Shopify-Event-Id as well as by webhook id', async () => {
    const raw = JSON.stringify({ id: 999_001 });
    expect(await deliver('products/delete', raw, { 'x-shopify-event-id': 'event-1' })).toEqual({
      status: 200,
      data: 'queued',
    });
    expect(await deliver('products/delete', raw, { 'x-shopify-event-id': 'event-1' })).toEqual({
      status: 200,
      data: 'duplicate',
    });
    expect(await deliver('products/delete', raw, { 'x-shopify-event-id': 'event-2' })).toEqual({
      status: 200,
      data: 'queued',
    });
  });

  it('checks the signature on the raw bytes before parsing: a forged body that is not JSON is a 401', async () => {
    const res = await fetch(`${base}/webhooks/shop/replay`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-hmac-sha256': 'AAAA',
        'x-shopify-topic': 'products/update',
        'x-shopify-webhook-id': 'x',
      },
      body: '{"id": ',
    });
    expect(res.status).toBe(401);
    const billing = await fetch(`${base}/webhooks/billing/replay`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-recharge-hmac-sha256': 'beef',
        'x-recharge-topic': 'subscription/updated',
      },
      body: '{"subscription": ',
    });
    expect(billing.status).toBe(401);
  });

  it('deduplicates a legacy-signed billing delivery by its body: a changed topic does not replay it', async () => {
    const raw = JSON.stringify({
      subscription: {
        id: 1000,
        address_id: 500,
        customer_id: 100,
        external_product_id: { ecommerce: '1' },
        external_variant_id: { ecommerce: '11' },
        status: 'active',
        price: '12.00',
        quantity: 1,
        product_title: 'Product 1',
        order_interval_frequency: 1,
        charge_interval_frequency: 1,
        order_interval_unit: 'month',
        created_at: '2026-01-01T00:00:00+00:00',
        updated_at: '2026-11-23T10:00:00+00:00',
        next_charge_scheduled_at: '2026-12-23',
        properties: [],
      },
    });
    const send = async (topic: string) =>
      (await (
        await fetch(`${base}/webhooks/billing/replay`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-recharge-hmac-sha256': legacy(raw),
            'x-recharge-topic': topic,
          },
          body: raw,
        })
      ).json()) as { data: string };
    expect((await send('subscription/activated')).data).toBe('applied');
    expect((await send('subscription/cancelled')).data).toBe('duplicate');
    expect((await send('subscription/updated')).data).toBe('duplicate');
  });

  it('names a missing topic or delivery id as missing, and an unknown topic as invalid', async () => {
    const raw = JSON.stringify(productInput(2));
    const billingRaw = JSON.stringify({ id: 100 });
    const post = async (path: string, headers: Record<string, string>, body: string) =>
      (await fetch(`${base}/webhooks/${path}/replay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      }).then((res) => res.json())) as { code: string; parameter: string };
    const shop = (headers: Record<string, string>) =>
      post('shop', { 'x-shop-hmac-sha256': sign(raw), ...headers }, raw);
    const billing = (headers: Record<string, string>) =>
      post(
        'billing',
        { 'x-billing-hmac-sha256': createHmac('sha256', BILLING_SECRET).update(billingRaw).digest('hex'), ...headers },
        billingRaw,
      );
    expect(await shop({ 'x-shop-webhook-id': 'n-1' })).toMatchObject({
      code: 'missing_parameter',
      parameter: 'X-Shop-Topic',
    });
    expect(await shop({ 'x-shop-topic': 'products/wobble', 'x-shop-webhook-id': 'n-2' })).toMatchObject({
      code: 'invalid_parameter',
      parameter: 'X-Shop-Topic',
    });
    expect(await shop({ 'x-shop-topic': 'products/update' })).toMatchObject({
      code: 'missing_parameter',
      parameter: 'X-Shop-Webhook-Id',
    });
    expect(await billing({ 'x-billing-webhook-id': 'b-1' })).toMatchObject({
      code: 'missing_parameter',
      parameter: 'X-Billing-Topic',
    });
    expect(await billing({ 'x-billing-topic': 'customer/updated' })).toMatchObject({
      code: 'missing_parameter',
      parameter: 'X-Billing-Webhook-Id',
    });
  });

  it('limits deliveries per shop before any signature is computed, counting only what could be one', async () => {
    // From many addresses, so the limit of failed authentications per address does not answer first.
    const from = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    /** Sends `count` requests 100 at a time (stopping at the first 429 if `stop`); the 429s it got. */
    const flood = async (shop: string, headers: Record<string, string>, count: number, stop: boolean) => {
      let limited = 0;
      for (let sent = 0; !(stop && limited > 0) && sent < count; sent += 100) {
        const answers = await Promise.all(
          Array.from({ length: 100 }, (_, k) =>
            t.app.inject({
              method: 'POST',
              url: `/webhooks/shop/${shop}`,
              remoteAddress: from(sent + k),
              headers,
              payload: '{}',
            }),
          ),
        );
        limited += answers.filter((r) => r.statusCode === 429).length;
      }
      return limited;
    };
    // Refused before anything is computed (no signature; not JSON): more than a minute's worth leaves the
    // shop's real deliveries alone.
    const past = WEBHOOK_LIMIT_PER_MINUTE + 500;
    expect(await flood('replay', { 'content-type': 'application/json' }, past, false)).toBe(0);
    expect(await flood('replay', { 'content-type': 'text/plain', 'x-shopify-hmac-sha256': 'x' }, past, false)).toBe(0);
    expect(await deliver('products/delete', JSON.stringify({ id: 999_001 }))).toEqual({ status: 200, data: 'queued' });
    // Signed, even wrongly, each one is a signature to compute: past the shop's minute, a 429.
    const signed = { 'content-type': 'application/json', 'x-shopify-hmac-sha256': 'bm90IGEgc2lnbmF0dXJl' };
    // The windows are fixed minutes: a run that straddles a boundary needs up to a second window's worth.
    expect(await flood('replay', signed, 3 * WEBHOOK_LIMIT_PER_MINUTE, true)).toBeGreaterThan(0);
    // The address that delivered the shop's verified webhooks before has a minute of its own: forgeries from
    // elsewhere do not hold up the platform's deliveries. A real delivery from an address new to the shop waits.
    expect(await deliver('products/delete', JSON.stringify({ id: 999_002 }))).toEqual({ status: 200, data: 'queued' });
    const raw = JSON.stringify({ id: 999_003 });
    const fromNew = await t.app.inject({
      method: 'POST',
      url: '/webhooks/shop/replay',
      remoteAddress: '10.250.0.1',
      headers: {
        'content-type': 'application/json',
        'x-shopify-hmac-sha256': sign(raw),
        'x-shopify-topic': 'products/delete',
        'x-shopify-webhook-id': 'wh-new-address',
      },
      payload: raw,
    });
    expect(fromNew.statusCode).toBe(429);
  });
});
