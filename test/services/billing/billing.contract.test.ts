import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionFromRemote } from '../../../src/domain/billing/remote.js';
import type { BillingAddress, BillingSubscription } from '../../../src/domain/billing/types.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends, type Backend } from '../../helpers/backends.js';
import {
  FUTURE,
  TEST_SECRET_KEY,
  seedBilling,
  seedFakeProvider,
  switchToRemoteProvider,
} from '../../helpers/billing.js';
import { FakeBillingProvider } from '../../helpers/fake-billing-provider.js';

/** What a test can see of the provider's side, whichever provider holds the subscriptions. */
interface ProviderState {
  subscription(id: number): Promise<BillingSubscription | null>;
  hasDiscount(addressId: number): Promise<boolean>;
  onetimeCount(): Promise<number>;
}

const WEBHOOK_SECRET = 'contract-webhook-secret-0123456789';
const cases = backends().flatMap((backend) =>
  (['ledger', 'remote'] as const).map((provider) => ({ backend, provider, name: `${provider} on ${backend.name}` })),
);

/** The billing behaviour, written once, run against the ledger and a remote provider on both databases. */
describe.each(cases)(
  'billing contract: $name',
  ({ backend, provider }: { backend: Backend; provider: 'ledger' | 'remote' }) => {
    let t: TestApp;
    let shop: { id: number; private: string };
    let fake: FakeBillingProvider | null = null;
    let state: ProviderState;

    beforeAll(async () => {
      t = await startApp(backend, { REBOUND_SECRET_KEY: TEST_SECRET_KEY, REBOUND_ALLOW_PRIVATE_UPSTREAMS: 'true' });
      shop = await seedBilling(t, 'contract');
      await t.admin('PATCH', '/admin/v1/shops/contract', { billing_webhook_secret: WEBHOOK_SECRET });
      if (provider === 'remote') {
        fake = seedFakeProvider(await new FakeBillingProvider().start());
        await switchToRemoteProvider(t, 'contract', fake);
        state = {
          subscription: async (id) =>
            fake!.subscriptions.has(id) ? subscriptionFromRemote(fake!.subscriptions.get(id) as never) : null,
          hasDiscount: async (id) => (fake!.addresses.get(id)?.discounts ?? []).length > 0,
          onetimeCount: async () => fake!.onetimes.size,
        };
      } else {
        const store = t.services.store;
        state = {
          subscription: (id) => store.getLedgerDoc<BillingSubscription>(shop.id, 'billing_subscriptions', id),
          hasDiscount: async (id) =>
            (await store.getLedgerDoc<BillingAddress>(shop.id, 'billing_addresses', id))?.discount_code != null,
          async onetimeCount() {
            let n = 0;
            while (await store.getLedgerDoc(shop.id, 'billing_onetimes', n + 1)) n++;
            return n;
          },
        };
      }
    });
    afterAll(async () => {
      await t.close();
      await fake?.stop();
      await backend.cleanup();
    });

    const context = (query: string) => t.app.inject(`/api/v1/billing/reactivate?key=${shop.private}&${query}`);
    const follow = (link: string, method: 'GET' | 'POST' = 'GET') => {
      const url = new URL(link);
      return t.app.inject({
        method,
        url: `${url.pathname}${url.search}`,
        ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' } : {}),
      });
    };
    const onetime = (query: string, idempotency?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/billing/onetime?key=${shop.private}&${query}`,
        headers: idempotency ? { 'idempotency-key': idempotency } : {},
      });
    const campaign = async (body: object) =>
      (await t.admin('POST', '/admin/v1/shops/contract/campaigns', body)).json().campaign.id as number;
    /** One more cancelled subscription of customer 100, on whichever side holds them. */
    async function addCancelled(id: number): Promise<void> {
      if (fake) {
        const created = {
          ...fake.subscriptions.get(1000),
          id,
          status: 'cancelled',
          cancelled_at: '2026-10-02T00:00:00+00:00',
        };
        fake.subscriptions.set(id, created);
        // The provider says so with a webhook, which drops Rebound's cached list of the customer's subscriptions.
        const raw = JSON.stringify({ subscription: created });
        const hook = await t.app.inject({
          method: 'POST',
          url: '/webhooks/billing/contract',
          payload: raw,
          headers: {
            'content-type': 'application/json',
            'x-recharge-topic': 'subscription/created',
            'x-recharge-hmac-sha256': createHash('sha256')
              .update(WEBHOOK_SECRET + raw)
              .digest('hex'),
          },
        });
        expect(hook.json()).toEqual({ data: 'applied' });
        return;
      }
      const res = await t.admin('PUT', '/admin/v1/shops/contract/billing/subscriptions', [
        {
          id,
          customer_id: 100,
          address_id: 500,
          shop_product_id: 1,
          shop_variant_id: 11,
          status: 'CANCELLED',
          price: 10,
          quantity: 1,
          product_title: 'Product 1',
          order_interval_frequency: '1',
          order_interval_unit: 'month',
          cancelled_at: '2026-10-02T00:00:00',
        },
      ]);
      expect(res.statusCode).toBe(200);
    }
    const stats = async (id: number) =>
      (await t.admin('GET', `/admin/v1/shops/contract/campaigns/${id}/stats`)).json().data;

    it("builds the reactivation context in the seed's shapes", async () => {
      const res = await context('billing_customer_id=100');
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json();
      expect(data.billing_customer).toMatchObject({
        id: 100,
        email: 'ada@example.com',
        first_name: 'Ada',
        shop_customer_id: '9100',
        has_valid_payment_method: true,
      });
      expect(data.billing_subscriptions.map((s: { id: number }) => s.id)).toEqual([1000, 1001]);
      expect(data.billing_subscriptions[0]).toMatchObject({
        status: 'CANCELLED',
        cancellation_reason: 'too much coffee',
        shop_product_id: 1,
        shop_variant_id: 11,
        price: 10,
        order_interval_unit: 'month',
        shop_product: { id: 1, handle: 'product-1' },
        shop_variant: { id: 11 },
      });
      expect(data.billing_subscriptions[1]).toMatchObject({
        shop_variant_id: 21,
        variant_title: 'Large',
        order_interval_frequency: '2',
        order_interval_unit: 'week',
      });
      expect((await context('billing_customer_id=100&billing_subscription_ids=1100')).statusCode).toBe(400);
      expect((await context('billing_customer_id=999')).json()).toEqual({
        error: 'Billing customer 999 not found.',
        code: 'not_found',
      });
    });

    it('reactivates by a live link once, records the discount and the conversion; repeats change nothing', async () => {
      const id = await campaign({ name: 'Winback', discount_code: 'BACK10' });
      const data = (
        await context(
          'billing_customer_id=100&billing_subscription_ids=1000&request_type=live&tk=mail1' +
            `&billing_discount_code=BACK10&campaign_id=${id}`,
        )
      ).json().data;
      const link = data.service_reactivate_all_link;
      const tally = ({ status, number_active_subscriptions, number_subscriptions }: Record<string, unknown>) => ({
        status,
        active: number_active_subscriptions,
        total: number_subscriptions,
      });
      const before = tally(data.billing_customer);
      expect(before.status).toBe((before.active as number) > 0 ? 'ACTIVE' : 'INACTIVE');
      expect((await follow(link)).body).toContain('<button type="submit">Reactivate</button>');
      expect((await state.subscription(1000))!.status).toBe('CANCELLED');

      const done = await follow(link, 'POST');
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('active again');
      const after = (await state.subscription(1000))!;
      expect(after).toMatchObject({ status: 'ACTIVE', cancelled_at: null, cancellation_reason: null });
      expect(after.next_charge_scheduled_at! > new Date().toISOString().slice(0, 10)).toBe(true);
      expect(await state.hasDiscount(500)).toBe(true);
      const customer = (await context('billing_customer_id=100')).json().data.billing_customer;
      expect(tally(customer)).toEqual({ ...before, status: 'ACTIVE', active: (before.active as number) + 1 });
      expect((await follow(link, 'POST')).body).toContain('active again');
      expect((await state.subscription(1000))!.updated_at).toBe(after.updated_at);
      expect(await stats(id)).toMatchObject({ links_generated: 2, pages_opened: 1, reactivations: 1 });
    });

    it("holds a customer to the campaign's claim limit, and lets a raised limit through", async () => {
      await addCancelled(1003);
      await addCancelled(1004);
      const id = await campaign({ name: 'Once', max_claims_per_customer: 1 });
      const linkFor = async (sub: number) =>
        (
          await context(`billing_customer_id=100&billing_subscription_ids=${sub}&request_type=live&campaign_id=${id}`)
        ).json().data.service_reactivate_all_link;
      expect((await follow(await linkFor(1003), 'POST')).body).toContain('active again');
      const second = await linkFor(1004);
      const page = await follow(second);
      expect(page.body).toContain('already reactivated');
      expect(page.body).not.toContain('<button');
      expect((await follow(second, 'POST')).body).toContain('already reactivated');
      expect((await state.subscription(1004))!.status).toBe('CANCELLED');
      expect((await stats(id)).reactivations).toBe(1);

      const raised = await t.admin('PATCH', `/admin/v1/shops/contract/campaigns/${id}`, { max_claims_per_customer: 2 });
      expect(raised.json().campaign).toMatchObject({ id, max_claims_per_customer: 2 });
      expect((await follow(second, 'POST')).body).toContain('active again');
      expect((await state.subscription(1004))!.status).toBe('ACTIVE');
      expect((await stats(id)).reactivations).toBe(2);
    });

    it('creates a one-time purchase on the next queued charge, replayed for a repeated Idempotency-Key', async () => {
      const before = await state.onetimeCount();
      const res = await onetime('address_id=500&shop_variant_id=21', 'contract-1');
      expect(res.statusCode, res.body).toBe(201);
      const { data } = res.json();
      expect(data.charge).toBeNull();
      expect(data.order).toBeNull();
      expect(data.onetime).toMatchObject({
        address_id: 500,
        customer_id: 100,
        shop_product_id: 2,
        shop_variant_id: 21,
        quantity: 1,
        price: '8.50',
        product_title: 'Product 2',
        variant_title: 'Large',
        next_charge_scheduled_at: FUTURE,
      });
      const again = await onetime('address_id=500&shop_variant_id=21', 'contract-1');
      expect(again.statusCode).toBe(201);
      expect(again.body).toBe(res.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect((await onetime('address_id=500&shop_variant_id=21&quantity=2', 'contract-1')).statusCode).toBe(409);
      expect(await state.onetimeCount()).toBe(before + 1);
      expect(
        (await onetime('charge_id=7000&shop_variant_id=11&next_charge_scheduled_at=tomorrow')).json().data.onetime,
      ).toMatchObject({
        address_id: 500,
        shop_variant_id: 11,
      });
    });

    it('charges now: a valid card makes an order, a refused one a 402 with the charge in ERROR', async () => {
      const paid = await onetime(
        'address_id=500&shop_variant_id=11&quantity=2&charge_now=yes&next_charge_scheduled_at=today',
      );
      expect(paid.statusCode, paid.body).toBe(201);
      const { onetime: created, charge, order } = paid.json().data;
      expect(created).toMatchObject({ shop_variant_id: 11, quantity: 2, price: '10.00' });
      expect(charge).toMatchObject({ status: 'SUCCESS', address_id: 500, customer_id: 100 });
      expect(charge.processed_at).not.toBeNull();
      expect(order).toMatchObject({ charge_id: charge.id, customer_id: 100 });
      expect(order.line_items).toContainEqual(
        expect.objectContaining({ shop_variant_id: 11, quantity: 2, price: '10.00' }),
      );

      const refused = await onetime('address_id=501&shop_variant_id=11&charge_now=yes&next_charge_scheduled_at=today');
      expect(refused.statusCode, refused.body).toBe(402);
      expect(refused.json().error).toMatch(/^The charge failed: .+\. The one-time purchase was cancelled\.$/);
      expect(refused.json().charge).toMatchObject({ status: 'ERROR', address_id: 501 });
    });

    it('creates one purchase for parallel identical retries with one Idempotency-Key', async () => {
      const before = await state.onetimeCount();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          onetime('address_id=500&shop_variant_id=21&charge_now=yes&next_charge_scheduled_at=today', 'parallel-1'),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(201));
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(await state.onetimeCount()).toBe(before + 1);
    });
  },
);
