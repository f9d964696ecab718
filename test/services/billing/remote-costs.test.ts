import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { TEST_SECRET_KEY, seedBilling, seedFakeProvider, switchToRemoteProvider } from '../../helpers/billing.js';
import { FakeBillingProvider } from '../../helpers/fake-billing-provider.js';

/**
 * What each billing operation costs in calls to a remote provider, call by call, with a cold
 * cache and within the 30 seconds reads are kept (docs/billing.md quotes these sequences).
 */
describe('calls a remote provider receives per operation', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let fake: FakeBillingProvider;
  let key: string;

  beforeAll(async () => {
    fake = seedFakeProvider(await new FakeBillingProvider().start());
    t = await startApp(backend, { REBOUND_SECRET_KEY: TEST_SECRET_KEY, REBOUND_ALLOW_PRIVATE_UPSTREAMS: 'true' });
    key = (await seedBilling(t, 'costs')).private;
    await switchToRemoteProvider(t, 'costs', fake);
  });
  beforeEach(() => {
    fake.received.length = 0;
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
    await backend.cleanup();
  });

  const calls = () => fake.received.map((r) => `${r.method} ${r.path.split('?')[0]}`);
  const post = (link: string) => {
    const url = new URL(link);
    return t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
  };
  const onetime = (query: string) =>
    t.app.inject({ method: 'POST', url: `/api/v1/billing/onetime?key=${key}&${query}` });

  it('a reactivation context: the customer and their subscriptions, then nothing while cached', async () => {
    const context = () =>
      t.app.inject(
        `/api/v1/billing/reactivate?key=${key}&billing_customer_id=100&request_type=live&billing_discount_code=BACK10`,
      );
    expect((await context()).statusCode).toBe(200);
    expect(calls()).toEqual(['GET /customers/100', 'GET /subscriptions']);
    fake.received.length = 0;
    const link = (await context()).json().data.service_reactivate_all_link;
    expect(calls()).toEqual([]);

    // Confirming reactivates both cancelled subscriptions, then records the discount on their address.
    expect((await post(link)).body).toContain('active again');
    expect(calls()).toEqual([
      'POST /subscriptions/1000/activate',
      'POST /subscriptions/1001/activate',
      'GET /addresses/500',
      'POST /addresses/500/apply_discount',
    ]);
    fake.received.length = 0;
    // The written objects left the cache: the next page reads them again.
    expect((await post(link)).body).toContain('active again');
    expect(calls()).toEqual(['GET /customers/100', 'GET /subscriptions']);
  });

  const oneTime =
    'a one-time purchase: the address, the next queued charge, the purchase; ' +
    'charge_now adds finding and processing its charge';
  it(oneTime, async () => {
    expect((await onetime('address_id=500&shop_variant_id=21')).statusCode).toBe(201);
    expect(calls()).toEqual(['GET /addresses/500', 'GET /charges', 'POST /onetimes']);
    fake.received.length = 0;
    expect(
      (await onetime('address_id=500&shop_variant_id=11&charge_now=yes&next_charge_scheduled_at=today')).statusCode,
    ).toBe(201);
    expect(calls()).toEqual([
      'POST /onetimes',
      'GET /charges',
      expect.stringMatching(/^POST \/charges\/\d+\/process$/),
    ]);
    fake.received.length = 0;
    expect((await onetime('charge_id=7000&shop_variant_id=11&next_charge_scheduled_at=tomorrow')).statusCode).toBe(201);
    expect(calls()).toEqual(['GET /charges/7000', 'POST /onetimes']); // address 500 is still cached
  });
});
