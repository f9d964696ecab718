import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopToday, nextIntervalDate } from '../../../src/domain/billing/dates.js';
import { signLink } from '../../../src/domain/billing/links.js';
import type { BillingAddress, BillingSubscription } from '../../../src/domain/billing/types.js';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { seedBilling } from '../../helpers/billing.js';

describe.each(backends())('billing reactivation on $name', (backend) => {
  let t: TestApp;
  let shop: { id: number; public: string; private: string };
  let other: { private: string };
  let campaignId: number;
  beforeAll(async () => {
    t = await startApp(backend);
    shop = await seedBilling(t, 'subs');
    other = await seedBilling(t, 'other-subs');
    campaignId = (
      await t.admin('POST', '/admin/v1/shops/subs/campaigns', { name: 'Winback', discount_code: 'BACK10' })
    ).json().campaign.id;
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const context = (query: string, key = shop.private) => t.app.inject(`/api/v1/billing/reactivate?key=${key}&${query}`);
  const sub = (id: number) => t.services.store.getLedgerDoc<BillingSubscription>(shop.id, 'billing_subscriptions', id);
  const follow = (link: string, method: 'GET' | 'POST' = 'GET') => {
    const url = new URL(link);
    return t.app.inject({
      method,
      url: `${url.pathname}${url.search}`,
      ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' } : {}),
    });
  };
  const expect400 = async (query: string, param: string) => {
    const res = await context(query);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toContain(param);
  };

  it(
    'builds the context: the customer, the subscriptions that are ' + 'not active, links, catalog product and variant',
    async () => {
      const res = await context('billing_customer_id=100');
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json();
      expect(Object.keys(data)).toEqual(['service_reactivate_all_link', 'billing_customer', 'billing_subscriptions']);
      expect(data.billing_customer).toMatchObject({
        id: 100,
        email: 'ada@example.com',
        // Subscription 1002 is active: the tally counts the ledger's three.
        status: 'ACTIVE',
        number_active_subscriptions: 1,
        number_subscriptions: 3,
        has_valid_payment_method: true,
        billing_address1: '',
      });
      expect(data.billing_subscriptions.map((s: { id: number }) => s.id)).toEqual([1000, 1001]);
      const [first, second] = data.billing_subscriptions;
      expect(first).toMatchObject({
        status: 'CANCELLED',
        cancellation_reason: 'too much coffee',
        billing_product_id: 1,
        shop_product: { id: 1, handle: 'product-1' },
        shop_variant: { id: 11, price: '10.00' },
      });
      expect(second.shop_variant).toMatchObject({ id: 21, title: 'Large' });
      const link = new URL(first.service_reactivate_link);
      expect(link.origin + link.pathname).toBe('https://subs.example/billing/reactivate');
      expect(Object.fromEntries(link.searchParams)).toMatchObject({
        merchant_token: 'subs',
        billing_customer_id: '100',
        billing_subscription_ids: '1000',
        request_type: 'preview',
      });
      expect(link.searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
      expect(Number(link.searchParams.get('expires'))).toBeGreaterThan(Date.now() / 1000 + 29 * 86400);
      expect(new URL(data.service_reactivate_all_link).searchParams.get('billing_subscription_ids')).toBe('1000,1001');
    },
  );

  it("takes listed subscriptions, and refuses another customer's", async () => {
    expect(
      (await context('billing_customer_id=100&billing_subscription_ids=1002,1000'))
        .json()
        .data.billing_subscriptions.map((s: { id: number }) => s.id),
    ).toEqual([1002, 1000]);
    await expect400('billing_customer_id=100&billing_subscription_ids=1100', 'billing_subscription_ids');
    await expect400('billing_customer_id=100&billing_subscription_ids=x', 'billing_subscription_ids');
  });

  it('validates every parameter', async () => {
    await expect400('', 'billing_customer_id');
    await expect400('billing_customer_id=abc', 'billing_customer_id');
    await expect400(`billing_customer_id=100&tk=${'a'.repeat(41)}`, 'tk');
    await expect400('billing_customer_id=100&tk=has%20space', 'tk');
    await expect400('billing_customer_id=100&request_type=maybe', 'request_type');
    await expect400('billing_customer_id=100&billing_discount_code=50%25off', 'billing_discount_code');
    await expect400('billing_customer_id=100&bust_cache=perhaps', 'bust_cache');
    // Another format is ignored, never a 400 (docs/api.md, "Aliases").
    expect((await context('billing_customer_id=100&format=xml')).statusCode).toBe(200);
    expect((await context('billing_customer_id=100&format=pretty&bust_cache=yes')).body).toMatch(/^\{\n {2}"data"/);
    const live = (
      await context(
        `billing_customer_id=100&request_type=live&tk=${'t'.repeat(40)}` +
          `&billing_discount_code=BACK10&campaign_id=${campaignId}`,
      )
    ).json().data;
    expect(Object.fromEntries(new URL(live.service_reactivate_all_link).searchParams)).toMatchObject({
      request_type: 'live',
      tk: 't'.repeat(40),
      billing_discount_code: 'BACK10',
      campaign_id: String(campaignId),
    });
  });

  it("puts the campaign's discount code in its links unless the request names one", async () => {
    const linkOf = async (query: string) =>
      new URL(
        (await context(`billing_customer_id=100&campaign_id=${campaignId}${query}`)).json().data
          .service_reactivate_all_link,
      ).searchParams;
    expect((await linkOf('')).get('billing_discount_code')).toBe('BACK10');
    expect((await linkOf('&billing_discount_code=ONLY5')).get('billing_discount_code')).toBe('ONLY5');
    expect((await context('billing_customer_id=100')).json().data.service_reactivate_all_link).not.toContain(
      'billing_discount_code',
    );
    // A code a link cannot carry is refused when the campaign is saved.
    const spaced = await t.admin('POST', '/admin/v1/shops/subs/campaigns', {
      name: 'Spaced',
      discount_code: 'bad code',
    });
    expect(spaced.statusCode).toBe(422);
    expect(spaced.json()).toMatchObject({ field: 'discount_code' });
    const patched = await t.admin('PATCH', `/admin/v1/shops/subs/campaigns/${campaignId}`, { discount_code: 'a/b' });
    expect(patched.statusCode).toBe(422);
  });

  it('answers 404 for unknown customers and campaigns, and keeps shops apart', async () => {
    expect((await context('billing_customer_id=999')).json()).toEqual({
      error: 'Billing customer 999 not found.',
      code: 'not_found',
    });
    expect((await context('billing_customer_id=100&campaign_id=999')).statusCode).toBe(404);
    // The other shop has its own customer 100, but this shop's key never sees it and vice versa.
    await t.admin('PUT', '/admin/v1/shops/other-subs/billing/customers', [{ id: 4242, email: 'x@example.com' }]);
    expect((await context('billing_customer_id=4242')).statusCode).toBe(404);
    expect((await context('billing_customer_id=4242', other.private)).statusCode).toBe(200);
  });

  it('needs the private key', async () => {
    const res = await context('billing_customer_id=100', shop.public);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'This endpoint needs a private API key.', code: 'key_scope' });
    expect((await t.app.inject('/api/v1/billing/reactivate?billing_customer_id=100')).statusCode).toBe(400);
  });

  it('follows the link life cycle: GET changes nothing, POST reactivates once, repeats are harmless', async () => {
    const data = (
      await context(
        `billing_customer_id=100&request_type=live&tk=mail1&billing_discount_code=BACK10&campaign_id=${campaignId}`,
      )
    ).json().data;
    const link = data.billing_subscriptions[0].service_reactivate_link;
    const page = await follow(link);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('<button type="submit">Reactivate</button>');
    expect(page.body).toContain('Product 1');
    expect((await sub(1000))!.status).toBe('CANCELLED');

    const done = await follow(link, 'POST');
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('active again');
    const after = (await sub(1000))!;
    const expectedDate = nextIntervalDate(shopToday(Date.now(), 'America/New_York'), '1', 'month');
    expect(after).toMatchObject({
      status: 'ACTIVE',
      cancelled_at: null,
      cancellation_reason: null,
      cancellation_reason_comments: null,
      next_charge_scheduled_at: `${expectedDate}T00:00:00`,
    });
    expect((await sub(1001))!.status).toBe('CANCELLED'); // the link named one subscription
    expect(
      (await t.services.store.getLedgerDoc<BillingAddress>(shop.id, 'billing_addresses', 500))!.discount_code,
    ).toBe('BACK10');

    const again = await follow(link, 'POST');
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('active again');
    expect((await sub(1000))!.updated_at).toBe(after.updated_at);
    const stats = (await t.admin('GET', `/admin/v1/shops/subs/campaigns/${campaignId}/stats`)).json().data;
    expect(stats.by_tk.mail1).toEqual({ links_generated: 3, pages_opened: 1, reactivations: 1 });
  });

  it('refuses tampered and expired links with a 403 page and changes nothing', async () => {
    const data = (await context('billing_customer_id=100&billing_subscription_ids=1001&request_type=live')).json().data;
    const link = new URL(data.service_reactivate_all_link);
    link.searchParams.set('billing_subscription_ids', '1001,1000');
    const tampered = await follow(link.toString(), 'POST');
    expect(tampered.statusCode).toBe(403);
    expect(tampered.body).toContain('not valid');
    const secret = (await t.services.store.getShopByHandle('subs'))!.signing_secret;
    const params: Record<string, string> = {
      merchant_token: 'subs',
      billing_customer_id: '100',
      billing_subscription_ids: '1001',
      request_type: 'live',
      expires: String(Math.floor(Date.now() / 1000) - 60),
    };
    params.sig = signLink(params, secret);
    const expired = await follow(`https://subs.example/billing/reactivate?${new URLSearchParams(params)}`, 'POST');
    expect(expired.statusCode).toBe(403);
    expect(expired.body).toContain('expired');
    expect((await sub(1001))!.status).toBe('CANCELLED');
  });

  it('never writes through a preview link', async () => {
    const data = (await context('billing_customer_id=100&billing_subscription_ids=1001')).json().data;
    const page = await follow(data.service_reactivate_all_link, 'POST');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Preview');
    expect((await sub(1001))!.status).toBe('CANCELLED');
  });

  it('reactivates on GET only when the shop opted in', async () => {
    const data = (await context('billing_customer_id=100&billing_subscription_ids=1001&request_type=live')).json().data;
    await follow(data.service_reactivate_all_link);
    expect((await sub(1001))!.status).toBe('CANCELLED');
    await t.admin('PATCH', '/admin/v1/shops/subs', { settings: { reactivate_on_get: true } });
    const page = await follow(data.service_reactivate_all_link);
    expect(page.body).toContain('active again');
    const after = (await sub(1001))!;
    expect(after.status).toBe('ACTIVE');
    expect(after.next_charge_scheduled_at).toBe(
      `${nextIntervalDate(shopToday(Date.now(), 'America/New_York'), '2', 'week')}T00:00:00`,
    );
  });
});
