import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingSubscription } from '../../../src/domain/billing/types.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { seedBilling } from '../../helpers/billing.js';

/** What newsletter and ad tools append to links, as they append it. */
const TRACKING = {
  mailchimp: 'utm_source=newsletter&utm_medium=email&utm_campaign=winback_nov&mc_cid=8d1e2f3a4b&mc_eid=5c6d7e8f9a',
  klaviyo:
    'utm_source=Klaviyo&utm_medium=campaign&utm_campaign=Winback%20(01ABCDEF)' +
    '&_kx=AbCdEf123.XyZ&_ke=eyJrbF9lbWFpbCI6ICJhQGIuYyJ9',
  google: 'gclid=Cj0KCQiA0MD_BRCTARIsADXoopb',
  meta: 'fbclid=IwAR2F4-dbP0l7Mn1IOgRmlNKhKHD6GzF',
  other: 'ref=footer&utm_content=button&utm_term=coffee&x=%F0%9F%98%80',
};

describe.each(backends())('one-click links as mail tools deliver them, on $name', (backend) => {
  let t: TestApp;
  let shop: { id: number; private: string };
  let campaignId: number;
  beforeAll(async () => {
    t = await startApp(backend);
    shop = await seedBilling(t, 'links');
    campaignId = (
      await t.admin('POST', '/admin/v1/shops/links/campaigns', { name: 'Links', max_claims_per_customer: 10 })
    ).json().campaign.id;
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const liveLink = async (sub: number, tk: string) =>
    new URL(
      (
        await t.app.inject(
          `/api/v1/billing/reactivate?key=${shop.private}&billing_customer_id=100&billing_subscription_ids=${sub}` +
            `&request_type=live&campaign_id=${campaignId}&tk=${encodeURIComponent(tk)}`,
        )
      ).json().data.service_reactivate_all_link,
    );
  const open = (url: URL, extra: string, options: { method?: 'GET' | 'HEAD' | 'POST'; accept?: string } = {}) =>
    t.app.inject({
      method: options.method ?? 'GET',
      url: `${url.pathname}${url.search}&${extra}`,
      headers: {
        ...(options.accept ? { accept: options.accept } : {}),
        ...(options.method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(options.method === 'POST' ? { payload: '' } : {}),
    });
  const byTk = async (tk: string) =>
    (await t.admin('GET', `/admin/v1/shops/links/campaigns/${campaignId}/stats`)).json().data.by_tk[tk];
  const sub = (id: number) => t.services.store.getLedgerDoc<BillingSubscription>(shop.id, 'billing_subscriptions', id);

  it.each(Object.entries(TRACKING))(
    'ignores the parameters %s adds: the page opens, and its form posts the link as signed',
    async (tool, extra) => {
      const link = await liveLink(1001, `t-${tool}`);
      const page = await open(link, extra);
      expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
      expect(page.body).toContain('<button type="submit">Reactivate</button>');
      const action = /action="([^"]+)"/.exec(page.body)![1]!.replace(/&amp;/g, '&');
      expect(action).not.toMatch(/utm_|mc_|_k[xe]=|gclid|fbclid|ref=/);
      expect((await byTk(`t-${tool}`)).pages_opened).toBe(1);
    },
  );

  it('reactivates through a link that carries tracking parameters', async () => {
    const link = await liveLink(1000, 'tracked-post');
    const done = await open(link, `${TRACKING.mailchimp}&${TRACKING.google}`, { method: 'POST' });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('active again');
    expect((await sub(1000))!.status).toBe('ACTIVE');
  });

  it('still refuses a link whose own parameters were changed or repeated', async () => {
    const link = await liveLink(1001, 'tamper');
    expect((await open(link, 'billing_subscription_ids=1100')).statusCode).toBe(403);
    expect((await open(link, 'tk=tamper')).statusCode).toBe(403);
    link.searchParams.set('request_type', 'preview');
    expect((await open(link, TRACKING.meta)).statusCode).toBe(403);
  });

  it('answers a customer with nothing left to reactivate with a page that says so, not a refusal', async () => {
    const context = async () =>
      (
        await t.app.inject(`/api/v1/billing/reactivate?key=${shop.private}&billing_customer_id=101&request_type=live`)
      ).json().data;
    const before = await context();
    expect(before.billing_subscriptions.map((s: { id: number }) => s.id)).toEqual([1100]);
    expect((await open(new URL(before.service_reactivate_all_link), '', { method: 'POST' })).statusCode).toBe(200);
    const after = await context();
    expect(after.billing_subscriptions).toEqual([]);
    const page = await open(new URL(after.service_reactivate_all_link), TRACKING.google);
    expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
    expect(page.body).toContain('Nothing to reactivate');
    expect(page.body).not.toContain('<form');
    // The link stays signed: ids added to it are still a refusal.
    const forged = new URL(after.service_reactivate_all_link);
    expect((await open(forged, 'billing_subscription_ids=1000')).statusCode).toBe(403);
  });

  it('counts a page as opened only for a GET answered with the page', async () => {
    const link = await liveLink(1001, 'opens');
    const head = await open(link, TRACKING.other, { method: 'HEAD' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toContain('text/html');
    const json = await open(link, '', { accept: 'application/json' });
    expect(json.statusCode).toBe(406);
    expect(json.json().error).toContain('text/html');
    expect((await open(link, '', { accept: 'text/html;q=0, application/json' })).statusCode).toBe(406);
    expect(await byTk('opens')).toMatchObject({ pages_opened: 0 });
    for (const accept of ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', '*/*', '']) {
      expect((await open(link, '', accept ? { accept } : {})).statusCode).toBe(200);
    }
    expect((await byTk('opens')).pages_opened).toBe(3);
  });

  it('keeps tk=__proto__ a plain tracking key: stats answer, no object gains a property, metrics render', async () => {
    const res = await t.app.inject(
      `/api/v1/billing/reactivate?key=${shop.private}&billing_customer_id=100` +
        `&billing_subscription_ids=1001&campaign_id=${campaignId}&tk=__proto__`,
    );
    expect(res.statusCode).toBe(200);
    const link = new URL(res.json().data.service_reactivate_all_link);
    expect((await open(link, '')).statusCode).toBe(200);
    const stats = await t.admin('GET', `/admin/v1/shops/links/campaigns/${campaignId}/stats`);
    expect(stats.statusCode).toBe(200);
    const counts = Object.getOwnPropertyDescriptor(JSON.parse(stats.body).data.by_tk, '__proto__')?.value;
    expect(counts).toEqual({ links_generated: 2, pages_opened: 1, reactivations: 0 });
    expect(({} as Record<string, unknown>).links_generated).toBeUndefined();
    expect(({} as Record<string, unknown>).pages_opened).toBeUndefined();
    const metrics = await t.app.inject('/metrics');
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toContain('rebound_http_requests_total');
  });
});
