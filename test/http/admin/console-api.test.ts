import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreEvent } from '../../../src/domain/events.js';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { seedBilling } from '../../helpers/billing.js';
import { productInput } from '../../helpers/fixtures.js';

const DAY = 86_400_000;
const MINUTE = 60_000;
const U = '3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b';
/**
 * +05:30 all year, no DST: local midnights fall on half hours
 * in UTC, so hour buckets would put events on the wrong day.
 */
const TZ = 'Asia/Kolkata';
const OFFSET = 5.5 * 3_600_000;
const localDate = (ms: number) => new Date(ms + OFFSET).toISOString().slice(0, 10);
const dateBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY).toISOString().slice(0, 10);

interface Row {
  product_id: number;
  [field: string]: unknown;
}
const ids = (rows: Row[]) => rows.map((r) => r.product_id);

describe.each(backends())('console admin API on $name', (backend) => {
  let t: TestApp;
  let shop: { id: number; public: string; private: string };
  let other: { id: number; public: string; private: string };
  let billing: { id: number; public: string; private: string };
  // Whole seconds, so order ages (and trending scores) are exact.
  const now = Math.floor(Date.now() / 1000) * 1000;
  const today = localDate(Date.now());
  /** Local midnight starting the day `daysAgo` before today, in the shop's time zone. */
  const midnight = (daysAgo: number) => Date.parse(`${today}T00:00:00+05:30`) - daysAgo * DAY;
  const order = (id: number, daysAgo: number, lines: [number, number][], extra: object = {}) => ({
    id,
    created_at: new Date(now - daysAgo * DAY).toISOString(),
    line_items: lines.map(([product_id, quantity]) => ({ product_id, quantity })),
    ...extra,
  });
  const event = (verb: StoreEvent['verb'], handle: string, at: number): StoreEvent => ({
    uuid: U,
    customer_id: null,
    subject: 'user',
    verb,
    noun: 'product',
    handle,
    subject_email: null,
    theme_id: null,
    created_at: at,
  });
  const fillers = Array.from({ length: 11 }, (_, i) => 6 + i); // products 6..16: one unit each, three days ago

  beforeAll(async () => {
    t = await startApp(backend);
    shop = await t.createShop('console', { timezone: TZ, currency: 'EUR' });
    // The hand-computed trending scores below count units with a 7-day half-life.
    await t.admin('PATCH', '/admin/v1/shops/console', {
      settings: { trending_counts: 'units', trending_half_life_days: 7 },
    });
    other = await t.createShop('elsewhere');
    billing = await seedBilling(t, 'winback');
    const put = async (path: string, body: unknown) => {
      const res = await t.admin('PUT', `/admin/v1/shops/console/${path}`, body);
      if (res.statusCode !== 200) throw new Error(`${path}: ${res.body}`);
    };
    await put('products', [
      ...[1, 3, 4, 5, ...fillers, 17].map((id) => productInput(id)),
      productInput(2, { title: 'No Picture', images: [] }),
    ]);
    await t.admin('PUT', '/admin/v1/shops/elsewhere/products', [productInput(1, { title: 'Elsewhere 1' })]);
    await put('collections', [
      {
        id: 50,
        title: 'Mixed',
        handle: 'mixed',
        products: [4, 3, 1, 2].map((product_id, i) => ({ product_id, position: i + 1 })),
      },
    ]);
    await put('orders', [
      order(1, 1, [
        [1, 2],
        [3, 3],
      ]),
      order(2, 5, [[2, 4]]),
      order(3, 20, [[4, 10]]),
      order(4, 2, [[5, 100]], { cancelled_at: new Date(now).toISOString() }), // cancelled: never counts
      order(5, 0.5, [[1, 1]]), // the newest order: where the sales windows end
      order(
        6,
        3,
        fillers.map((id) => [id, 1] as [number, number]),
      ),
      order(7, 200, [[17, 500]]), // outside every window
    ]);
    await t.services.events.importEvents(shop.id, [
      event('viewed', 'product-1', midnight(0) - 10 * MINUTE), // 23:50 yesterday
      event('added', 'product-1', midnight(0) + MINUTE), // 00:01 today
      event('viewed', 'product-2', midnight(2) + 10 * MINUTE),
      event('viewed', 'product-2', midnight(2) + 10 * MINUTE),
      event('added', 'product-2', midnight(2) + 10 * MINUTE),
      event('removed', 'product-2', midnight(2) - 1), // the last instant of three days ago
      ...Array.from({ length: 100 }, () => event('viewed', 'product-4', midnight(3) + 2 * 3_600_000)),
      event('viewed', 'product-3', midnight(7) + 3_600_000), // just outside a 7-day window
    ]);
    await t.services.events.importEvents(other.id, [event('viewed', 'product-1', midnight(2) + 10 * MINUTE)]);
    const viewed = await t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${shop.public}&subject=user` +
        `&verb=viewed&noun=product&shop_product_handle=product-1&uuid=${U}`,
    });
    expect(viewed.statusCode).toBe(200);
    // Views reach the read model once a minute; load them now.
    await t.services.catalogIndex.reload(shop.id);
    await t.services.catalogIndex.reload(other.id);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const insights = async (query = '', bearer?: string) => {
    const res = await t.admin('GET', `/admin/v1/shops/console/insights${query}`, undefined, bearer);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const badRequest = async (path: string, bearer?: string) => {
    const res = await t.admin('GET', path, undefined, bearer);
    expect(res.statusCode, res.body).toBe(400);
    return res.json().error as string;
  };

  describe('GET /admin/v1/session', () => {
    it('shows the operator every shop, public fields only', async () => {
      const res = await t.admin('GET', '/admin/v1/session');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.operator).toBe(true);
      expect(body.shops.map((s: { handle: string }) => s.handle)).toEqual(['console', 'elsewhere', 'winback']);
      // The same documents as the operator's shop list: nothing dropped by the response schema.
      expect(body.shops).toEqual((await t.admin('GET', '/admin/v1/shops')).json().data);
      expect(body.shops[0]).toMatchObject({
        id: shop.id,
        timezone: TZ,
        currency: 'EUR',
        webhook_secret_set: false,
        billing_webhook_secret_set: false,
      });
      expect(res.body).not.toContain('signing_secret');
      expect(res.body).not.toContain('data_version');
    });

    it("shows a shop's private key only its own shop", async () => {
      const res = await t.admin('GET', '/admin/v1/session', undefined, other.private);
      expect(res.json()).toEqual({
        operator: false,
        shops: [(await t.admin('GET', '/admin/v1/shops/elsewhere')).json().shop],
        // No REBOUND_SECRET_KEY here: the console says so before a merchant types a token.
        can_store_tokens: false,
      });
      expect(res.json().shops[0].handle).toBe('elsewhere');
    });

    it('refuses missing, unknown and public credentials', async () => {
      expect((await t.app.inject('/admin/v1/session')).statusCode).toBe(401);
      expect((await t.admin('GET', '/admin/v1/session', undefined, 'not-a-token')).statusCode).toBe(401);
      const pub = await t.admin('GET', '/admin/v1/session', undefined, shop.public);
      expect(pub.statusCode).toBe(401);
      expect(pub.json()).toEqual({ error: 'Invalid admin credentials.', code: 'invalid_credentials' });
    });
  });

  describe('GET /admin/v1/shops/{handle}/campaigns', () => {
    it('lists campaigns oldest first with their counters summed over tracking keys', async () => {
      const first = (
        await t.admin('POST', '/admin/v1/shops/winback/campaigns', { name: 'Winback', discount_code: 'BACK10' })
      ).json().campaign;
      const second = (await t.admin('POST', '/admin/v1/shops/winback/campaigns', { name: 'Quiet' })).json().campaign;
      const context = (query: string) =>
        t.app.inject(
          `/api/v1/billing/reactivate?key=${billing.private}&billing_customer_id=100` +
            `&request_type=live&campaign_id=${first.id}&${query}`,
        );
      // Two cancelled subscriptions: a link each and one for all of them.
      const data = (await context('tk=mail1')).json().data;
      expect((await context('tk=mail2&billing_subscription_ids=1001')).statusCode).toBe(200); // two more links
      const link = new URL(data.billing_subscriptions[0].service_reactivate_link);
      expect((await t.app.inject(`${link.pathname}${link.search}`)).statusCode).toBe(200); // a page opened
      const done = await t.app.inject({
        method: 'POST',
        url: `${link.pathname}${link.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(done.statusCode).toBe(200); // a reactivation

      const res = await t.admin('GET', '/admin/v1/shops/winback/campaigns');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: [
          {
            id: first.id,
            name: 'Winback',
            discount_code: 'BACK10',
            max_claims_per_customer: 1,
            created_at: first.created_at,
            stats: { links_generated: 5, pages_opened: 1, reactivations: 1 },
          },
          {
            id: second.id,
            name: 'Quiet',
            discount_code: null,
            max_claims_per_customer: 1,
            created_at: second.created_at,
            stats: { links_generated: 0, pages_opened: 0, reactivations: 0 },
          },
        ],
      });
      const stats = (await t.admin('GET', `/admin/v1/shops/winback/campaigns/${first.id}/stats`)).json().data;
      expect({
        links_generated: stats.links_generated,
        pages_opened: stats.pages_opened,
        reactivations: stats.reactivations,
      }).toEqual(res.json().data[0].stats);
      // The shop's own key sees the same; another shop has none.
      expect((await t.admin('GET', '/admin/v1/shops/winback/campaigns', undefined, billing.private)).json()).toEqual(
        res.json(),
      );
      expect((await t.admin('GET', '/admin/v1/shops/console/campaigns')).json()).toEqual({ data: [] });
    });

    it("hides another shop's campaigns and needs credentials", async () => {
      const res = await t.admin('GET', '/admin/v1/shops/winback/campaigns', undefined, other.private);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Shop winback not found.', code: 'not_found' });
      expect((await t.app.inject('/admin/v1/shops/winback/campaigns')).statusCode).toBe(401);
      expect((await t.admin('GET', '/admin/v1/shops/nope/campaigns')).statusCode).toBe(404);
    });
  });

  describe('GET /admin/v1/shops/{handle}/insights', () => {
    it('ranks trending like trending_products, with image and score', async () => {
      const data = await insights();
      expect(data.days).toBe(30);
      expect(data.currency).toBe('EUR');
      // Ages are counted from the newest order (half a day ago); half-life 7 days.
      const decay = (daysBeforeNewest: number) => 0.5 ** (daysBeforeNewest / 7);
      expect(ids(data.trending)).toEqual([1, 3, 2, 4, 6, 7, 8, 9, 10, 11]);
      expect(data.trending[0]).toEqual({
        product_id: 1,
        title: 'Product 1',
        handle: 'product-1',
        image: 'https://img.example/1.png',
        score: expect.any(Number),
      });
      expect(data.trending[0].score).toBeCloseTo(2 * decay(0.5) + 1, 9);
      expect(data.trending[1].score).toBeCloseTo(3 * decay(0.5), 9);
      expect(data.trending[2]).toMatchObject({ product_id: 2, title: 'No Picture', image: null });
      expect(data.trending[2].score).toBeCloseTo(4 * decay(4.5), 9);
      expect(data.trending[3].score).toBeCloseTo(10 * decay(19.5), 9);
      const listed = await t.app.inject(`/api/v1/products/trending_products?key=${shop.public}&limit=10`);
      expect(listed.json().data.map((p: { id: number }) => p.id)).toEqual(ids(data.trending));
    });

    it('counts top sellers over the last `days` days, without cancelled orders', async () => {
      const thirty = (await insights()).top_sellers;
      expect(thirty.map((r: Row) => [r.product_id, r.units])).toEqual([
        [4, 10],
        [2, 4],
        [1, 3],
        [3, 3],
        [6, 1],
        [7, 1],
        [8, 1],
        [9, 1],
        [10, 1],
        [11, 1],
      ]);
      expect(thirty[0]).toEqual({
        product_id: 4,
        title: 'Product 4',
        handle: 'product-4',
        image: 'https://img.example/4.png',
        units: 10,
      });
      expect(thirty[1].image).toBeNull();
      expect((await insights('?days=7')).top_sellers.map((r: Row) => [r.product_id, r.units])).toEqual([
        [2, 4],
        [1, 3],
        [3, 3],
        [6, 1],
        [7, 1],
        [8, 1],
        [9, 1],
        [10, 1],
        [11, 1],
        [12, 1],
      ]);
      expect((await insights('?days=1')).top_sellers.map((r: Row) => [r.product_id, r.units])).toEqual([
        [1, 3],
        [3, 3],
      ]);
      expect((await insights('?days=90')).top_sellers.map((r: Row) => r.product_id)).not.toContain(5);
    });

    it("counts events per day of the shop's time zone, every day of the window, oldest first", async () => {
      const day = (daysAgo: number, viewed = 0, added = 0, removed = 0) => ({
        date: dateBefore(today, daysAgo),
        viewed,
        added,
        removed,
      });
      const week = [day(6), day(5), day(4), day(3, 100, 0, 1), day(2, 2, 1), day(1, 1), day(0, 1, 1)];
      expect((await insights('?days=7')).events_per_day).toEqual(week);
      expect((await insights('?days=8')).events_per_day).toEqual([day(7, 1), ...week]);
      expect((await insights('?days=1')).events_per_day).toEqual([day(0, 1, 1)]);
      const month = (await insights()).events_per_day;
      expect(month).toHaveLength(30);
      expect(month[0]).toEqual(day(29));
      expect(month.slice(-8)).toEqual([day(7, 1), ...week]);
      expect((await insights('?days=90')).events_per_day).toHaveLength(90);
    });

    it("estimates conversion with smart sort's Bayesian average, and ranks as smart_sort=yes does", async () => {
      const { conversion } = await insights('?days=7'); // always over the last 30 days
      // Units in 30 days: 1→3, 2→4, 3→3, 4→10, 6..16→1 each (31); views: 1→2, 2→2, 3→1, 4→100 (105).
      const p = 31 / 105;
      expect(conversion.k).toBe(20);
      expect(conversion.shop_rate).toBeCloseTo(p, 12);
      const estimate = (purchases: number, views: number) => (purchases + 20 * p) / (views + 20);
      expect(conversion.products.map((r: Row) => [r.product_id, r.views, r.purchases])).toEqual([
        [2, 2, 4],
        [3, 1, 3],
        [1, 2, 3],
        [4, 100, 10],
      ]);
      // Products sold but never viewed (6–16) have only the prior to show: they are left out.
      expect(conversion.products[0]).toEqual({
        product_id: 2,
        title: 'No Picture',
        views: 2,
        purchases: 4,
        estimate: expect.any(Number),
      });
      for (const row of conversion.products) expect(row.estimate).toBeCloseTo(estimate(row.purchases, row.views), 12);
      const smart = await t.app.inject(
        `/api/v1/products/collections?key=${shop.public}&shop_collection_ids=50&smart_sort=yes&limit=10`,
      );
      expect(smart.json().data.map((q: { id: number }) => q.id)).toEqual([...ids(conversion.products).slice(0, 3), 4]);
    });

    it('answers 400 naming days for a bad window, and takes an empty one as the default', async () => {
      for (const bad of ['0', '91', '100', 'abc', '1.5', '-1', '7d', '1e1', '0x10']) {
        const error = await badRequest(`/admin/v1/shops/console/insights?days=${bad}`);
        expect(error).toContain('days');
        expect(error).toContain('1 to 90');
      }
      expect(await badRequest('/admin/v1/shops/console/insights?days=1&days=2')).toContain('days');
      expect((await insights('?days=')).days).toBe(30);
      expect((await insights('?days=%207%20')).days).toBe(7);
      expect((await insights('?days=90')).days).toBe(90);
    });

    it("is a shop's own: another shop's key gets 404, no credentials 401", async () => {
      expect((await insights('', shop.private)).currency).toBe('EUR');
      const res = await t.admin('GET', '/admin/v1/shops/console/insights', undefined, other.private);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Shop console not found.', code: 'not_found' });
      expect((await t.app.inject('/admin/v1/shops/console/insights')).statusCode).toBe(401);
      // A shop without orders: empty sales rankings; its one view is a day of the window, at an estimate of zero.
      const quiet = (await t.admin('GET', '/admin/v1/shops/elsewhere/insights?days=5', undefined, other.private)).json()
        .data;
      expect(quiet).toMatchObject({ days: 5, currency: 'USD', trending: [], top_sellers: [] });
      expect(quiet.conversion).toEqual({
        shop_rate: 0,
        k: 20,
        products: [{ product_id: 1, title: 'Elsewhere 1', views: 1, purchases: 0, estimate: 0 }],
      });
      expect(quiet.events_per_day).toHaveLength(5);
      expect(quiet.events_per_day.at(-1).date).toBe(new Date().toISOString().slice(0, 10)); // elsewhere keeps UTC
      expect(quiet.events_per_day.reduce((sum: number, d: { viewed: number }) => sum + d.viewed, 0)).toBe(1);
    });
  });

  it(
    "sees bulk-imported views at once, not on the next minute's " + 'refresh (the demo seed imports its events so)',
    async () => {
      const fresh = await t.createShop('bulk-views');
      await t.admin('PUT', '/admin/v1/shops/bulk-views/products', [productInput(1)]);
      const before = (await t.admin('GET', '/admin/v1/shops/bulk-views/insights')).json().data.conversion;
      expect(before.products).toEqual([]);
      await t.services.events.importEvents(
        fresh.id,
        Array.from({ length: 3 }, () => event('viewed', 'product-1', Date.now() - 3_600_000)),
      );
      const after = (await t.admin('GET', '/admin/v1/shops/bulk-views/insights')).json().data.conversion;
      expect(after.products).toEqual([{ product_id: 1, title: 'Product 1', views: 3, purchases: 0, estimate: 0 }]);
    },
  );

  describe('GET /admin/v1/shops/{handle}/products?variant_ids=', () => {
    it('returns the products holding the variants, in the order of their first variant, each once', async () => {
      // productInput(id) has variants id*10+1 and id*10+2.
      const res = await t.admin('GET', '/admin/v1/shops/console/products?variant_ids=42,31,999999,32,12');
      expect(res.statusCode).toBe(200);
      expect(res.json().data.map((p: { id: number }) => p.id)).toEqual([4, 3, 1]);
      expect(res.json().data[0].variants.map((v: { id: number }) => v.id)).toEqual([41, 42]);
      // another shop's variant
      expect((await t.admin('GET', '/admin/v1/shops/elsewhere/products?variant_ids=31')).json().data).toEqual([]);
      expect((await t.admin('GET', '/admin/v1/shops/console/products?variant_ids=4,x')).statusCode).toBe(400);
      expect((await t.admin('GET', '/admin/v1/shops/console/products?variant_ids=4,x')).json().error).toContain(
        'variant_ids',
      );
    });
  });

  describe('GET /admin/v1/shops/{handle}/products?ids=', () => {
    it('returns the named products in the order given, each once, unknown ids skipped', async () => {
      const res = await t.admin('GET', '/admin/v1/shops/console/products?ids=3,999,1,3,2');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.data.map((p: { id: number }) => p.id)).toEqual([3, 1, 2]);
      expect(body).toMatchObject({ page: 1, total: 3 });
      // Full stored documents, the same as the paged listing returns.
      const all = (await t.admin('GET', '/admin/v1/shops/console/products?limit=250')).json().data;
      expect(body.data[0]).toEqual(all.find((p: { id: number }) => p.id === 3));
      expect(body.data[0].variants).toHaveLength(2);
      expect(body.data[0].metafields[0]).toMatchObject({ key: 'material' });
      // query, limit and page do not apply to an id list; spaces are allowed.
      expect(
        (await t.admin('GET', '/admin/v1/shops/console/products?ids=17,%204&query=zzz&limit=1&page=3'))
          .json()
          .data.map((p: { id: number }) => p.id),
      ).toEqual([17, 4]);
      expect((await t.admin('GET', '/admin/v1/shops/console/products?ids=999')).json()).toEqual({
        data: [],
        page: 1,
        total: 0,
      });
      // Without ids (or with an empty list) the paged listing is unchanged.
      expect((await t.admin('GET', '/admin/v1/shops/console/products?ids=&limit=2')).json()).toMatchObject({
        page: 1,
        total: 17,
      });
      expect(
        (await t.admin('GET', '/admin/v1/shops/console/products?limit=2')).json().data.map((p: { id: number }) => p.id),
      ).toEqual([1, 2]);
    });

    it('keeps shops apart', async () => {
      expect(
        (await t.admin('GET', '/admin/v1/shops/elsewhere/products?ids=1'))
          .json()
          .data.map((p: { title: string }) => p.title),
      ).toEqual(['Elsewhere 1']);
      expect(
        (await t.admin('GET', '/admin/v1/shops/console/products?ids=1', undefined, other.private)).statusCode,
      ).toBe(404);
      expect((await t.app.inject('/admin/v1/shops/console/products?ids=1')).statusCode).toBe(401);
    });

    it('answers 400 naming ids and the bad element', async () => {
      const error = await badRequest('/admin/v1/shops/console/products?ids=1,x2,3');
      expect(error).toContain('ids');
      expect(error).toContain('"x2"');
      expect(await badRequest('/admin/v1/shops/console/products?ids=1,0')).toContain('"0"');
      expect(await badRequest('/admin/v1/shops/console/products?ids=-4')).toContain('"-4"');
      expect(await badRequest('/admin/v1/shops/console/products?ids=99999999999999999')).toContain('ids');
      const many = Array.from({ length: 251 }, (_, i) => i + 1).join(',');
      expect(await badRequest(`/admin/v1/shops/console/products?ids=${many}`)).toBe(
        'Parameter ids takes at most 250 ids, got 251.',
      );
      const ok = await t.admin(
        'GET',
        `/admin/v1/shops/console/products?ids=${Array.from({ length: 250 }, (_, i) => i + 1).join(',')}`,
      );
      expect(ok.json().total).toBe(17);
      expect(await badRequest('/admin/v1/shops/console/products?ids=1&ids=2')).toContain('ids');
    });
  });
});
