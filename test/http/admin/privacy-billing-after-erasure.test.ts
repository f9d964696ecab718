import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { billingHook, seedBilling } from '../../helpers/billing.js';

const SECRET = 'billing-webhook-secret-0123456789';
/** The provider's timestamps: UTC, without a zone. */
const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString().slice(0, 19);

/**
 * The billing provider retries its webhooks, and a merchant may import an old export of the
 * ledger again: documents of a billing customer from before the erasure of their shop customer are
 * stored as the erasure left them (docs/operations.md, "Privacy").
 */
describe.each(backends())("an erased customer's billing documents, written again, on $name", (backend) => {
  let t: TestApp;
  let shopId: number;
  beforeAll(async () => {
    t = await startApp(backend);
    shopId = (await seedBilling(t, 'pbe')).id;
    await t.admin('PATCH', '/admin/v1/shops/pbe', { billing_webhook_secret: SECRET });
    // Billing customer 100 is shop customer 9100's.
    expect((await t.admin('DELETE', '/admin/v1/shops/pbe/customers/9100')).statusCode).toBe(200);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const hook = (topic: string, id: string, body: unknown) => billingHook(t, 'pbe', SECRET)(topic, id, body);
  const customer = (updatedAt: string) => ({
    id: 100,
    email: 'ada@example.com',
    first_name: 'Ada',
    shop_customer_id: '9100',
    updated_at: updatedAt,
  });
  const stored = () => t.services.store.getLedgerDoc<Record<string, unknown>>(shopId, 'billing_customers', 100);
  const address = () => t.services.store.getLedgerDoc<Record<string, unknown>>(shopId, 'billing_addresses', 500);

  it('keeps what was blanked when a webhook or an import brings the old documents back', async () => {
    expect(await stored()).toMatchObject({ email: '', first_name: '', shop_customer_id: '' });
    const first = await hook('customer/updated', 'b1', customer(minutes(-10)));
    expect(first.statusCode, first.body).toBe(200);
    expect(await stored()).toMatchObject({ email: '', first_name: '', shop_customer_id: '' });
    const oldAddress = { id: 500, customer_id: 100, address1: '1 Main St', city: 'Springfield', zip: '12345' };
    const put = await t.admin('PUT', '/admin/v1/shops/pbe/billing/addresses', [
      { ...oldAddress, country_code: 'US', updated_at: minutes(-10) },
    ]);
    expect(put.statusCode).toBe(200);
    expect(await address()).toMatchObject({ address1: '', city: '' });
    // Another billing customer is not held back.
    await t.admin('PUT', '/admin/v1/shops/pbe/billing/customers', [{ id: 101, email: 'bob@example.com' }]);
    expect(await t.services.store.getLedgerDoc(shopId, 'billing_customers', 101)).toMatchObject({
      email: 'bob@example.com',
    });
  });

  it('takes a change made after the erasure as new data', async () => {
    expect((await hook('customer/updated', 'b2', customer(minutes(1)))).statusCode).toBe(200);
    expect(await stored()).toMatchObject({ email: 'ada@example.com', first_name: 'Ada' });
  });

  it('erases billing customers linked by the platform id or, without a link, by the e-mail', async () => {
    await t.admin('PUT', '/admin/v1/shops/pbe/customers', [{ id: 9300, email: 'cy@example.com' }]);
    await t.admin('PUT', '/admin/v1/shops/pbe/billing/customers', [
      { id: 300, email: 'cy@example.com', first_name: 'Cy' },
      { id: 301, email: 'cy.work@example.com', first_name: 'Cy', shop_customer_id: 'gid://shopify/Customer/9300' },
      // Linked to another customer: the e-mail alone does not make it theirs.
      { id: 302, email: 'cy@example.com', first_name: 'Dee', shop_customer_id: '9400' },
    ]);
    expect((await t.admin('DELETE', '/admin/v1/shops/pbe/customers/9300')).json().erased.billing_customers).toBe(2);
    const doc = (id: number) => t.services.store.getLedgerDoc<Record<string, unknown>>(shopId, 'billing_customers', id);
    expect(await doc(300)).toMatchObject({ email: '', first_name: '' });
    expect(await doc(301)).toMatchObject({ email: '', shop_customer_id: '' });
    expect(await doc(302)).toMatchObject({ email: 'cy@example.com', first_name: 'Dee' });
  });

  it('blanks a billing customer told of only after the erasure, and what comes of it', async () => {
    await t.admin('PUT', '/admin/v1/shops/pbe/customers', [{ id: 9500, email: 'nora@example.com' }]);
    expect((await t.admin('DELETE', '/admin/v1/shops/pbe/customers/9500')).statusCode).toBe(200);
    // The provider's webhooks from before the erasure, delivered after it, of customers it never saw.
    const before = minutes(-10);
    const nora = { email: 'nora@example.com', first_name: 'Nora', updated_at: before };
    expect((await hook('customer/created', 'n1', { id: 400, ...nora, shop_customer_id: '9500' })).statusCode).toBe(200);
    expect((await hook('customer/created', 'n2', { id: 401, ...nora })).statusCode).toBe(200);
    const at = {
      id: 600,
      customer_id: 400,
      address1: '3 Hidden Court',
      city: 'Nowhere',
      zip: '99999',
      updated_at: before,
    };
    expect((await hook('address/created', 'n3', { ...at, country_code: 'US' })).statusCode).toBe(200);
    const doc = (table: 'billing_customers' | 'billing_addresses', id: number) =>
      t.services.store.getLedgerDoc<Record<string, unknown>>(shopId, table, id);
    expect(await doc('billing_customers', 400)).toMatchObject({ email: '', first_name: '', shop_customer_id: '' });
    expect(await doc('billing_customers', 401)).toMatchObject({ email: '', first_name: '' });
    expect(await doc('billing_addresses', 600)).toMatchObject({ address1: '', zip: '' });
    // An address told of before its customer: blanked once the customer shows it is the erased one's.
    const early = { ...at, id: 610, customer_id: 410, address1: '4 Early Lane', country_code: 'US' };
    expect((await hook('address/created', 'n5', early)).statusCode).toBe(200);
    expect(await doc('billing_addresses', 610)).toMatchObject({ address1: '4 Early Lane' });
    expect((await hook('customer/created', 'n6', { id: 410, ...nora, shop_customer_id: '9500' })).statusCode).toBe(200);
    expect(await doc('billing_addresses', 610)).toMatchObject({ address1: '', zip: '' });
    // Told of after the erasure, dated after it: new data.
    const later = { id: 402, ...nora, shop_customer_id: '9500', updated_at: minutes(1) };
    expect((await hook('customer/created', 'n4', later)).statusCode).toBe(200);
    expect(await doc('billing_customers', 402)).toMatchObject({ email: 'nora@example.com', first_name: 'Nora' });
  });

  it("keeps a campaign's counts of a tracking key naming the erased customer's e-mail, under another key", async () => {
    const campaign = (await t.admin('POST', '/admin/v1/shops/pbe/campaigns', { name: 'Per recipient' })).json()
      .campaign;
    const { store } = t.services;
    await store.countCampaign(shopId, campaign.id, 'march:Lea@Example.com', 'links_generated', 2);
    await store.countCampaign(shopId, campaign.id, 'march:other@example.com', 'links_generated', 1);
    // Longer addresses holding hers are other recipients'.
    await store.countCampaign(shopId, campaign.id, 'march:jimlea@example.com', 'links_generated', 5);
    await store.countCampaign(shopId, campaign.id, 'march:lea@example.com.au', 'links_generated', 7);
    await t.admin('PUT', '/admin/v1/shops/pbe/customers', [{ id: 9700, email: 'lea@example.com' }]);
    expect((await t.admin('DELETE', '/admin/v1/shops/pbe/customers/9700')).statusCode).toBe(200);
    const counts = (await store.campaignCounts(shopId, campaign.id)).map((c) => [c.tk, c.count]).sort();
    expect(counts).toEqual([
      ['erased', 2],
      ['march:jimlea@example.com', 5],
      ['march:lea@example.com.au', 7],
      ['march:other@example.com', 1],
    ]);
  });
});
