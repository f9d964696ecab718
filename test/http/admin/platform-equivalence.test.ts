import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { connectAndSync, PLATFORM_ENV } from '../../helpers/fake-platform/connect.js';
import { restCollection, restCustomer, restOrder, restProduct } from '../../helpers/fake-platform/rest.js';
import { FakePlatform } from '../../helpers/fake-platform/server.js';

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** The same shop pulled from the platform and imported through the admin API answers alike. */
describe('pulled and imported data answer alike', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let fake: FakePlatform;
  const keys: Record<string, { public: string; private: string }> = {};
  beforeAll(async () => {
    fake = await new FakePlatform({ shape: { products: 40, collections: 5, customers: 12, orders: 120 } }).start();
    t = await startApp(backend, PLATFORM_ENV);
    keys.pulled = await t.createShop('pulled');
    keys.imported = await t.createShop('imported');
    const platform = await connectAndSync(t, 'pulled', fake);
    expect(platform.sync.phase).toBe('done');
    const { shape } = fake.catalog;
    const put = async (path: string, body: unknown) => {
      const res = await t.admin('PUT', `/admin/v1/shops/imported/${path}`, body);
      expect(res.statusCode, res.body).toBe(200);
    };
    await put(
      'products',
      range(shape.products).map((i) => restProduct(fake.catalog, i)),
    );
    await put(
      'collections',
      range(shape.collections).map((c) => restCollection(fake.catalog, c)),
    );
    await put(
      'customers',
      range(shape.customers).map((j) => restCustomer(fake.catalog, j)),
    );
    await put(
      'orders',
      range(shape.orders).map((o) => restOrder(fake.catalog, o)),
    );
    const ruleset = {
      name: 'Bought before, vip picks, then bought together',
      rules: [
        {
          name: 'bought product 1',
          logic: [{ rules: [{ type: 'customer_purchased', operator: 'contains_any', products: [{ product_id: 1 }] }] }],
          output: [{ type: 'endpoint', endpoint: '/products/purchased' }],
          exit_if_matched: true,
        },
        {
          name: 'vip',
          logic: [{ rules: [{ type: 'customer_tag', operator: 'contains_any', value: 'vip' }] }],
          output: [{ type: 'endpoint', endpoint: '/products/top_sellers' }],
        },
        { name: 'everyone', logic: [], output: [{ type: 'endpoint', endpoint: '/products/recommended' }] },
      ],
    };
    for (const handle of ['pulled', 'imported']) {
      const res = await t.admin('POST', `/admin/v1/shops/${handle}/rulesets`, ruleset);
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
    await backend.cleanup();
  });

  const both = async (path: (handle: string) => string, admin = false) => {
    const answers: string[] = [];
    for (const handle of ['pulled', 'imported']) {
      const url = path(handle).replace('KEY', keys[handle]!.public);
      const res = admin ? await t.admin('GET', url) : await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      answers.push(res.body);
    }
    return answers;
  };

  it('stores the same documents', async () => {
    const [pulled, imported] = await both((h) => `/admin/v1/shops/${h}/products?limit=250`, true);
    expect(JSON.parse(pulled!).data).toEqual(JSON.parse(imported!).data);
    const [a, b] = await both((h) => `/admin/v1/shops/${h}/collections`, true);
    expect(a).toBe(b);
  });

  it.each([
    'trending_products',
    'top_sellers',
    'collections?shop_collection_ids=2',
    'similar_products?shop_product_ids=3',
    'purchased?shop_customer_id=2',
    'static?ids=1,2,3',
  ])('answers /products/%s alike', async (list) => {
    const [pulled, imported] = await both(
      () => `/api/v1/products/${list}${list.includes('?') ? '&' : '?'}key=KEY&limit=10`,
    );
    expect(JSON.parse(pulled!).data.length).toBeGreaterThan(0);
    expect(pulled).toBe(imported);
  });

  it('answers the models, the model lists and a custom ruleset alike', async () => {
    for (const handle of ['pulled', 'imported']) {
      const shopId = (await t.services.store.getShopByHandle(handle))!.id;
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/products/recommended?key=${keys[handle]!.public}&shop_product_ids=1`,
      });
      await t.services.models.settled(shopId);
    }
    for (const path of ['recommended?shop_product_ids=1', 'for_you?shop_customer_id=2']) {
      const [pulled, imported] = await both(() => `/api/v1/products/${path}&key=KEY&limit=10`);
      expect(pulled).toBe(imported);
    }
    const similar = await both((h) => `/admin/v1/shops/${h}/models/similar?product_id=1`, true);
    expect(JSON.parse(similar[0]!).data).toEqual(JSON.parse(similar[1]!).data);
    for (const customer of [2, 5, 7]) {
      const custom = await both(() => `/api/v1/custom/id/1?key=KEY&shop_customer_id=${customer}&shop_product_ids=3`);
      expect(JSON.parse(custom[0]!).data.length).toBeGreaterThan(0);
      expect(custom[0]).toBe(custom[1]);
    }
  });

  it('reports the same insights', async () => {
    const [pulled, imported] = await both((h) => `/admin/v1/shops/${h}/insights?days=90`, true);
    expect(JSON.parse(pulled!).data.top_sellers.length).toBeGreaterThan(0);
    expect(pulled).toBe(imported);
  });
});
