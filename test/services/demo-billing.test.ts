import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoBilling } from '../../demo/billing.js';
import { generateDemoShop } from '../../demo/generate.js';
import { seedDemoShop } from '../../src/services/demo.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';

/**
 * The demo's billing data agrees with itself: every subscriber the demo lists can be sent a
 * reactivation link, and the page of that link offers something to reactivate.
 */
describe('the demo shop’s subscribers', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let privateKey: string;
  const now = new Date();

  beforeAll(async () => {
    t = await startApp(backend);
    const s = t.services;
    const seeded = await seedDemoShop(
      {
        shops: s.shops,
        catalog: s.catalog,
        rulesets: s.rulesets,
        events: s.events,
        ledger: s.ledger,
        activity: s,
      },
      { publicUrl: 'http://127.0.0.1', now },
    );
    privateKey = seeded.keys!.private;
  }, 300_000);
  afterAll(() => t.close().then(() => backend.cleanup()));

  it('each get a reactivation link whose page is valid and lists a subscription to reactivate', async () => {
    const { customers } = generateDemoBilling(generateDemoShop({ now }), { now });
    expect(customers.length).toBe(40);
    const broken: number[] = [];
    for (const { id } of customers) {
      const answer = await t.app.inject(`/api/v1/billing/reactivate?key=${privateKey}&billing_customer_id=${id}`);
      expect(answer.statusCode, answer.body).toBe(200);
      const link = new URL(answer.json().data.service_reactivate_all_link as string);
      const page = await t.app.inject(`${link.pathname}${link.search}`);
      if (page.statusCode !== 200 || page.body.includes('Link not valid') || !page.body.includes('Cancelled'))
        broken.push(id);
    }
    expect(broken).toEqual([]);
    // The campaign still shows claimed links: claiming left the subscribers something to reactivate.
    const [campaign] = (await t.admin('GET', '/admin/v1/shops/demo/campaigns')).json().data;
    expect(campaign.stats.reactivations).toBeGreaterThan(0);
  }, 120_000);
});
