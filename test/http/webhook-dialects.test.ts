import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingCustomer, BillingSubscription } from '../../src/domain/billing/types.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { seedBilling } from '../helpers/billing.js';
import { productInput } from '../helpers/fixtures.js';

const BILLING_SECRET = 'billing-client-secret-0123456789';
const SHOP_SECRET = 'storefront-webhook-secret-0123456789';

/** Signatures exactly as each platform documents them. */
const legacy = (raw: string, secret = BILLING_SECRET) =>
  createHash('sha256')
    .update(secret + raw)
    .digest('hex'); // a plain hash, secret first
const timed = (raw: string, t: number, secret = BILLING_SECRET) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
const storefront = (raw: string, secret = SHOP_SECRET) =>
  createHmac('sha256', secret).update(raw, 'utf8').digest('base64');

/** A 2021-11 subscription as the billing platform sends it, wrapped in its resource key. */
const subscription = (status: string, updatedAt: string) => ({
  subscription: {
    id: 1000,
    address_id: 500,
    customer_id: 100,
    external_product_id: { ecommerce: '1' },
    external_variant_id: { ecommerce: '11' },
    status,
    price: '12.00',
    quantity: 2,
    product_title: 'Product 1',
    variant_title: 'S',
    order_interval_frequency: 1,
    charge_interval_frequency: 1,
    order_interval_unit: 'month',
    cancelled_at: status === 'cancelled' ? updatedAt : null,
    cancellation_reason: status === 'cancelled' ? 'moving' : null,
    next_charge_scheduled_at: status === 'active' ? '2026-12-23' : null,
    created_at: '2026-01-01T00:00:00+00:00',
    updated_at: updatedAt,
    has_queued_charges: status === 'active',
    max_retries_reached: false,
    is_skippable: true,
    is_swappable: true,
    properties: [],
  },
});

describe.each(backends())("the platforms' own webhook dialects on $name", (backend) => {
  let t: TestApp;
  let shopId: number;
  let publicKey: string;
  beforeAll(async () => {
    t = await startApp(backend);
    const shop = await seedBilling(t, 'dialects');
    shopId = shop.id;
    publicKey = shop.public;
    await t.admin('PATCH', '/admin/v1/shops/dialects', {
      billing_webhook_secret: BILLING_SECRET,
      webhook_secret: SHOP_SECRET,
    });
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const billing = (topic: string, body: unknown, headers: (raw: string) => Record<string, string>) => {
    const raw = JSON.stringify(body);
    return t.app.inject({
      method: 'POST',
      url: '/webhooks/billing/dialects',
      payload: raw,
      headers: { 'content-type': 'application/json', 'x-recharge-topic': topic, ...headers(raw) },
    });
  };
  const now = () => Math.floor(Date.now() / 1000);
  const sub = () => t.services.store.getLedgerDoc<BillingSubscription>(shopId, 'billing_subscriptions', 1000);

  it('takes the legacy signature, a plain SHA-256 of secret and body, and maps the 2021-11 object', async () => {
    const res = await billing('subscription/activated', subscription('active', '2026-11-20T10:00:00+00:00'), (raw) => ({
      'x-recharge-hmac-sha256': legacy(raw),
    }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: 'applied' });
    expect(await sub()).toMatchObject({
      status: 'ACTIVE',
      quantity: 2,
      price: 12,
      shop_variant_id: 11,
      next_charge_scheduled_at: '2026-12-23T00:00:00',
      updated_at: '2026-11-20T10:00:00',
    });
  });

  it(
    'refuses an HMAC in the legacy header, the secret after the ' + 'body, or another secret, and stores nothing',
    async () => {
      const body = subscription('cancelled', '2026-11-21T10:00:00+00:00');
      for (const sign of [
        (raw: string) => createHmac('sha256', BILLING_SECRET).update(raw).digest('hex'),
        (raw: string) =>
          createHash('sha256')
            .update(raw + BILLING_SECRET)
            .digest('hex'),
        (raw: string) => legacy(raw, 'another-secret-0123456789'),
      ]) {
        const res = await billing('subscription/cancelled', body, (raw) => ({ 'x-recharge-hmac-sha256': sign(raw) }));
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: 'Invalid webhook signature.', code: 'webhook_signature' });
      }
      expect((await sub())!.status).toBe('ACTIVE');
    },
  );

  it('takes the timestamped signature while it is fresh, and applies a resent delivery once', async () => {
    const body = subscription('cancelled', '2026-11-22T10:00:00+00:00');
    const t0 = now() - 240;
    const first = await billing('subscription/cancelled', body, (raw) => ({
      'x-recharge-webhook-timestamp': String(t0),
      'x-recharge-webhook-signature': timed(raw, t0),
    }));
    expect(first.json()).toEqual({ data: 'applied' });
    expect(await sub()).toMatchObject({ status: 'CANCELLED', cancellation_reason: 'moving' });
    const t1 = now();
    const resent = await billing('subscription/cancelled', body, (raw) => ({
      'x-recharge-webhook-timestamp': String(t1),
      'x-recharge-webhook-signature': timed(raw, t1),
      'x-recharge-hmac-sha256': legacy(raw),
    }));
    expect(resent.json()).toEqual({ data: 'duplicate' });
  });

  it('refuses a stale or future timestamp, a wrong v1, and never falls back to the legacy header', async () => {
    const body = subscription('active', '2026-11-23T10:00:00+00:00');
    // A minute outside the 5 minutes each way: the delay between signing and checking on a loaded machine is far less.
    for (const t0 of [now() - 360, now() + 360]) {
      const res = await billing('subscription/activated', body, (raw) => ({
        'x-recharge-webhook-signature': timed(raw, t0),
        'x-recharge-hmac-sha256': legacy(raw),
      }));
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toContain('5 minutes');
    }
    const t0 = now();
    expect(
      (
        await billing('subscription/activated', body, (raw) => ({
          'x-recharge-webhook-signature': timed(raw, t0, 'another-secret-0123456789'),
          'x-recharge-hmac-sha256': legacy(raw),
        }))
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await billing('subscription/activated', body, (raw) => ({
          'x-recharge-webhook-signature': timed(raw, t0),
          'x-recharge-webhook-timestamp': String(t0 - 1),
        }))
      ).statusCode,
    ).toBe(401);
    expect((await billing('subscription/activated', body, () => ({}))).statusCode).toBe(401);
    expect((await sub())!.status).toBe('CANCELLED');
  });

  it('maps customers, acknowledges topics it does not keep, and refuses objects that do not map', async () => {
    const customer = {
      customer: {
        id: 100,
        email: 'ada@new.example',
        first_name: 'Ada',
        external_customer_id: { ecommerce: '9100' },
        has_valid_payment_method: true,
        subscriptions_active_count: 0,
        subscriptions_total_count: 4,
        updated_at: new Date(Date.now() + 60_000).toISOString(),
      },
    };
    expect(
      (await billing('customer/updated', customer, (raw) => ({ 'x-recharge-hmac-sha256': legacy(raw) }))).json(),
    ).toEqual({ data: 'applied' });
    expect(await t.services.store.getLedgerDoc<BillingCustomer>(shopId, 'billing_customers', 100)).toMatchObject({
      email: 'ada@new.example',
      number_subscriptions: 4,
      status: 'INACTIVE',
    });
    expect(
      (
        await billing('order/created', { order: { id: 1 } }, (raw) => ({ 'x-recharge-hmac-sha256': legacy(raw) }))
      ).json(),
    ).toEqual({ data: 'ignored' });
    expect(
      (
        await billing('constructor/updated', { constructor: {} }, (raw) => ({ 'x-recharge-hmac-sha256': legacy(raw) }))
      ).json(),
    ).toEqual({
      data: 'ignored',
    });
    expect(
      (await billing('charge/paid', { charge: { id: 'x' } }, (raw) => ({ 'x-recharge-hmac-sha256': legacy(raw) })))
        .statusCode,
    ).toBe(422);
    expect(
      (await billing('address/updated', { subscription: {} }, (raw) => ({ 'x-recharge-hmac-sha256': legacy(raw) })))
        .statusCode,
    ).toBe(422);
  });

  it("takes the storefront platform's own headers beside the neutral ones", async () => {
    const send = (topic: string, body: unknown, id: string, sign = storefront) => {
      const raw = JSON.stringify(body);
      return t.app.inject({
        method: 'POST',
        url: '/webhooks/shop/dialects',
        payload: raw,
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': topic,
          'x-shopify-webhook-id': id,
          'x-shopify-triggered-at': new Date().toISOString(),
          'x-shopify-hmac-sha256': sign(raw),
        },
      });
    };
    const product = productInput(3, { title: 'From the platform', updated_at: '2026-11-23T00:00:00Z' });
    expect(
      (await send('products/create', product, 'b1a2', (raw) => storefront(raw, 'another-secret-0123456789')))
        .statusCode,
    ).toBe(401);
    expect((await send('products/create', product, 'b1a2')).json()).toEqual({ data: 'queued' });
    expect((await send('products/create', product, 'b1a2')).json()).toEqual({ data: 'duplicate' });
    expect((await send('carts/create', { id: 1 }, 'c9')).json()).toEqual({ data: 'ignored' });
    expect((await send('products/create', product, '')).json().error).toContain('X-Shopify-Webhook-Id');
    await t.services.storefrontSync.applyPending();
    const res = await t.app.inject(`/api/v1/products/static?key=${publicKey}&ids=3&filter_oos=no`);
    expect(res.json().data[0].title).toBe('From the platform');
  });
});
