import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { seedBilling } from '../../helpers/billing.js';

/** The ids of subscriptions made on the ledger: above every imported one, or none at all. */
describe.each(backends())('POST /api/v1/billing/subscribe ids on $name', (backend) => {
  let t: TestApp;
  let shop: { id: number; private: string };
  beforeAll(async () => {
    t = await startApp(backend);
    shop = await seedBilling(t, 'subs');
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const subscribe = () =>
    t.app.inject({
      method: 'POST',
      url:
        `/api/v1/billing/subscribe?key=${shop.private}&address_id=500&shop_variant_id=21` +
        '&order_interval_unit=month&order_interval_frequency=1&next_charge_scheduled_at=tomorrow',
    });
  const ids = async () => (await t.services.store.listCustomerSubscriptions(shop.id, 100)).map((s) => s.id);

  it('refuses a subscription when no id is left above the imported ones, rather than overwrite one', async () => {
    const made = await subscribe();
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().data.id).toBeGreaterThan(1100);
    const imported = {
      id: Number.MAX_SAFE_INTEGER,
      customer_id: 100,
      address_id: 500,
      shop_product_id: 1,
      shop_variant_id: 11,
      status: 'ACTIVE',
      price: 10,
      quantity: 1,
      product_title: 'Product 1',
      order_interval_frequency: '1',
      order_interval_unit: 'month',
      updated_at: '2026-10-01T10:00:00',
    };
    expect((await t.admin('PUT', '/admin/v1/shops/subs/billing/subscriptions', [imported])).statusCode).toBe(200);
    const before = await ids();
    for (let i = 0; i < 2; i++) {
      const refused = await subscribe();
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'conflict' });
    }
    expect(await ids()).toEqual(before);
  });
});
