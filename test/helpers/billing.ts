import type { TestApp } from './app.js';
import { productInput } from './fixtures.js';

export const FUTURE = '2099-01-15T00:00:00';

/** A shop with two billing customers (one whose card fails), cancelled and active subscriptions, and a queued charge. */
export async function seedBilling(t: TestApp, handle: string) {
  const shop = await t.createShop(handle, { timezone: 'America/New_York', public_url: `https://${handle}.example` });
  const put = async (path: string, body: unknown) => {
    const res = await t.admin('PUT', `/admin/v1/shops/${handle}/${path}`, body);
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.body}`);
  };
  await put('products', [productInput(1), productInput(2, { variants: [{ id: 21, price: '8.50', title: 'Large' }] })]);
  await put('billing/customers', [
    { id: 100, email: 'ada@example.com', first_name: 'Ada', shop_customer_id: '9100', status: 'INACTIVE', has_valid_payment_method: true },
    { id: 101, email: 'bob@example.com', first_name: 'Bob', has_valid_payment_method: false, reason_payment_method_not_valid: 'card expired' },
  ]);
  await put('billing/addresses', [
    { id: 500, customer_id: 100, address1: '1 Main St', city: 'Springfield', zip: '12345', country_code: 'us' },
    { id: 501, customer_id: 101, address1: '2 Side St', city: 'Shelbyville', zip: '54321', country_code: 'US' },
  ]);
  const sub = (id: number, customer: number, address: number, status: string, extra: object = {}) => ({
    id, customer_id: customer, address_id: address, shop_product_id: 1, shop_variant_id: 11, status, price: 10, quantity: 1, product_title: 'Product 1',
    order_interval_frequency: '1', order_interval_unit: 'month', cancelled_at: status === 'CANCELLED' ? '2026-10-01T10:00:00' : null,
    cancellation_reason: status === 'CANCELLED' ? 'too much coffee' : null, updated_at: '2026-10-01T10:00:00', ...extra,
  });
  await put('billing/subscriptions', [
    sub(1000, 100, 500, 'CANCELLED'),
    sub(1001, 100, 500, 'CANCELLED', { shop_product_id: 2, shop_variant_id: 21, order_interval_frequency: '2', order_interval_unit: 'week', product_title: 'Product 2', variant_title: 'Large' }),
    sub(1002, 100, 500, 'ACTIVE', { next_charge_scheduled_at: FUTURE }),
    sub(1100, 101, 501, 'CANCELLED'),
  ]);
  await put('billing/charges', [
    { id: 7000, address_id: 500, customer_id: 100, status: 'QUEUED', scheduled_at: FUTURE },
    { id: 7001, address_id: 501, customer_id: 101, status: 'SUCCESS', scheduled_at: '2026-01-01T00:00:00' },
  ]);
  return shop;
}
