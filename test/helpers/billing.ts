import { createHmac } from 'node:crypto';
import type { TestApp } from './app.js';
import { FAKE_TOKEN, type FakeBillingProvider } from './fake-billing-provider.js';
import { productInput } from './fixtures.js';

export const FUTURE = '2099-01-15T00:00:00';

/**
 * A shop with two billing customers (one whose card fails), cancelled and active subscriptions, and a queued charge.
 */
export async function seedBilling(t: TestApp, handle: string) {
  const shop = await t.createShop(handle, { timezone: 'America/New_York', public_url: `https://${handle}.example` });
  const put = async (path: string, body: unknown) => {
    const res = await t.admin('PUT', `/admin/v1/shops/${handle}/${path}`, body);
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.body}`);
  };
  await put('products', [productInput(1), productInput(2, { variants: [{ id: 21, price: '8.50', title: 'Large' }] })]);
  await put('billing/customers', [
    {
      id: 100,
      email: 'ada@example.com',
      first_name: 'Ada',
      shop_customer_id: '9100',
      status: 'INACTIVE',
      has_valid_payment_method: true,
    },
    {
      id: 101,
      email: 'bob@example.com',
      first_name: 'Bob',
      has_valid_payment_method: false,
      reason_payment_method_not_valid: 'card expired',
    },
  ]);
  await put('billing/addresses', [
    { id: 500, customer_id: 100, address1: '1 Main St', city: 'Springfield', zip: '12345', country_code: 'us' },
    { id: 501, customer_id: 101, address1: '2 Side St', city: 'Shelbyville', zip: '54321', country_code: 'US' },
  ]);
  const sub = (id: number, customer: number, address: number, status: string, extra: object = {}) => ({
    id,
    customer_id: customer,
    address_id: address,
    shop_product_id: 1,
    shop_variant_id: 11,
    status,
    price: 10,
    quantity: 1,
    product_title: 'Product 1',
    order_interval_frequency: '1',
    order_interval_unit: 'month',
    cancelled_at: status === 'CANCELLED' ? '2026-10-01T10:00:00' : null,
    cancellation_reason: status === 'CANCELLED' ? 'too much coffee' : null,
    updated_at: '2026-10-01T10:00:00',
    ...extra,
  });
  await put('billing/subscriptions', [
    sub(1000, 100, 500, 'CANCELLED'),
    sub(1001, 100, 500, 'CANCELLED', {
      shop_product_id: 2,
      shop_variant_id: 21,
      order_interval_frequency: '2',
      order_interval_unit: 'week',
      product_title: 'Product 2',
      variant_title: 'Large',
    }),
    sub(1002, 100, 500, 'ACTIVE', { next_charge_scheduled_at: FUTURE }),
    sub(1100, 101, 501, 'CANCELLED'),
  ]);
  await put('billing/charges', [
    { id: 7000, address_id: 500, customer_id: 100, status: 'QUEUED', scheduled_at: FUTURE },
    { id: 7001, address_id: 501, customer_id: 101, status: 'SUCCESS', scheduled_at: '2026-01-01T00:00:00' },
  ]);
  return shop;
}

/** A REBOUND_SECRET_KEY for tests (never a real one). */
export const TEST_SECRET_KEY = '5e'.repeat(32);

/** The billing provider's own records of the same customers as `seedBilling`, in its 2021-11 shapes. */
export function seedFakeProvider(fake: FakeBillingProvider): FakeBillingProvider {
  const stamp = '2026-10-01T10:00:00+00:00';
  const customer = (id: number, email: string, first: string, valid: boolean, active: number, total: number) =>
    fake.customers.set(id, {
      id,
      hash: `c${id}`,
      external_customer_id: { ecommerce: String(id + 9000) },
      email,
      first_name: first,
      last_name: '',
      phone: '',
      created_at: stamp,
      updated_at: stamp,
      first_charge_processed_at: null,
      has_valid_payment_method: valid,
      has_payment_method_in_dunning: !valid,
      subscriptions_active_count: active,
      subscriptions_total_count: total,
      tax_exempt: false,
    });
  customer(100, 'ada@example.com', 'Ada', true, 1, 3);
  customer(101, 'bob@example.com', 'Bob', false, 0, 1);
  fake.addresses.set(500, {
    id: 500,
    customer_id: 100,
    address1: '1 Main St',
    city: 'Springfield',
    zip: '12345',
    country_code: 'US',
    discounts: [],
    updated_at: stamp,
  });
  fake.addresses.set(501, {
    id: 501,
    customer_id: 101,
    address1: '2 Side St',
    city: 'Shelbyville',
    zip: '54321',
    country_code: 'US',
    discounts: [],
    updated_at: stamp,
  });
  const sub = (id: number, customerId: number, addressId: number, status: string, extra: object = {}) =>
    fake.subscriptions.set(id, {
      id,
      customer_id: customerId,
      address_id: addressId,
      external_product_id: { ecommerce: '1' },
      external_variant_id: { ecommerce: '11' },
      status,
      price: '10.00',
      quantity: 1,
      product_title: 'Product 1',
      variant_title: '',
      order_interval_frequency: 1,
      charge_interval_frequency: 1,
      order_interval_unit: 'month',
      cancelled_at: status === 'cancelled' ? stamp : null,
      cancellation_reason: status === 'cancelled' ? 'too much coffee' : null,
      cancellation_reason_comments: null,
      next_charge_scheduled_at: null,
      created_at: stamp,
      updated_at: stamp,
      has_queued_charges: false,
      max_retries_reached: false,
      is_skippable: true,
      is_swappable: true,
      properties: [],
      sku: null,
      sku_override: false,
      presentment_currency: 'USD',
      ...extra,
    });
  sub(1000, 100, 500, 'cancelled');
  sub(1001, 100, 500, 'cancelled', {
    external_product_id: { ecommerce: '2' },
    external_variant_id: { ecommerce: '21' },
    order_interval_frequency: 2,
    charge_interval_frequency: 2,
    order_interval_unit: 'week',
    product_title: 'Product 2',
    variant_title: 'Large',
    price: '8.50',
  });
  sub(1002, 100, 500, 'active', { next_charge_scheduled_at: FUTURE.slice(0, 10) });
  sub(1100, 101, 501, 'cancelled');
  fake.charges.set(7000, {
    id: 7000,
    address_id: 500,
    customer: { id: 100 },
    status: 'queued',
    scheduled_at: FUTURE,
    processed_at: null,
    total_price: '10.00',
    line_items: [],
    updated_at: stamp,
  });
  fake.charges.set(7001, {
    id: 7001,
    address_id: 501,
    customer: { id: 101 },
    status: 'success',
    scheduled_at: '2026-01-01T00:00:00',
    processed_at: '2026-01-01T00:00:00',
    total_price: '10.00',
    line_items: [],
    updated_at: stamp,
  });
  fake.variants.set(11, { product: 1, title: 'Product 1', variant: 'S', price: '10.00' });
  fake.variants.set(12, { product: 1, title: 'Product 1', variant: 'M', price: '12.50' });
  fake.variants.set(21, { product: 2, title: 'Product 2', variant: 'Large', price: '8.50' });
  fake.discountCodes.add('BACK10');
  return fake;
}

/** Points a shop at the fake provider through the admin API. */
export async function switchToRemoteProvider(
  t: TestApp,
  handle: string,
  fake: FakeBillingProvider,
  token = FAKE_TOKEN,
): Promise<void> {
  const res = await t.admin('PUT', `/admin/v1/shops/${handle}/billing/provider`, {
    type: 'remote',
    base_url: fake.url,
    api_token: token,
    api_version: '2021-11',
  });
  if (res.statusCode !== 200) throw new Error(`provider: ${res.body}`);
}

/** Sends a billing webhook in Rebound's neutral dialect, signed with the shop's billing webhook secret. */
export function billingHook(t: TestApp, handle: string, secret: string) {
  return (topic: string, id: string, body: unknown) => {
    const raw = JSON.stringify(body);
    return t.app.inject({
      method: 'POST',
      url: `/webhooks/billing/${handle}`,
      payload: raw,
      headers: {
        'content-type': 'application/json',
        'x-billing-topic': topic,
        'x-billing-webhook-id': id,
        'x-billing-hmac-sha256': createHmac('sha256', secret).update(raw).digest('hex'),
      },
    });
  };
}
