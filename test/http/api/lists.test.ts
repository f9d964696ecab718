import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const DAY = 86_400_000;
const tracked = { inventory_management: 'shop', inventory_policy: 'deny' as const };
const U = '3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b';
/**
 * The figures below are in units with a 7-day half-life (trending
 * counts orders by default, with 14 days; tested apart).
 */
const UNITS = { trending_counts: 'units', trending_half_life_days: 7 };

const catalog = [
  productInput(1, {
    title: 'Alpine Tent',
    product_type: 'Tents',
    vendor: 'Fjell',
    tags: 'camping, tent',
    body_html: '<p>A sturdy shelter</p>',
  }),
  productInput(2, { title: 'Ridge Tent Footprint', product_type: 'Tents', vendor: 'Fjell', tags: 'camping' }),
  productInput(3, {
    title: 'Storm Lantern',
    product_type: 'Lights',
    vendor: 'Lumo',
    tags: 'outdoor, light',
    body_html: '<p>Bright tent light</p>',
  }),
  productInput(4, { title: 'Camp Stove', product_type: 'Kitchen', vendor: 'Blaze', tags: 'cooking' }),
  productInput(5, {
    title: 'Sold Out Tent',
    product_type: 'Tents',
    vendor: 'Fjell',
    tags: 'camping',
    variants: [{ id: 51, price: '99.00', ...tracked, inventory_quantity: 0 }],
  }),
  productInput(6, { title: 'Head Lamp', product_type: 'Lights', vendor: 'Fjell', tags: 'light' }),
  productInput(7, { title: 'Mug', product_type: 'Kitchen', vendor: 'Blaze', tags: 'cooking' }),
];

describe.each(backends())('list endpoints on $name', (backend) => {
  let t: TestApp;
  let key: string;
  let shopId: number;
  const now = Date.now();
  const order = (id: number, daysAgo: number, lines: [number, number][], extra: object = {}) => ({
    id,
    created_at: new Date(now - daysAgo * DAY).toISOString(),
    line_items: lines.map(([product_id, quantity]) => ({ product_id, quantity })),
    ...extra,
  });

  beforeAll(async () => {
    t = await startApp(backend);
    const shop = await t.createShop('lists');
    key = shop.public;
    shopId = shop.id;
    await t.admin('PATCH', '/admin/v1/shops/lists', { settings: UNITS });
    await t.admin('PUT', '/admin/v1/shops/lists/products', catalog);
    await t.admin('PUT', '/admin/v1/shops/lists/collections', [
      {
        id: 10,
        title: 'Camping',
        handle: 'camping',
        products: [
          { product_id: 2, position: 1 },
          { product_id: 1, position: 2 },
          { product_id: 3, position: 3 },
          { product_id: 5, position: 4 },
        ],
      },
      {
        id: 11,
        title: 'Kitchen',
        handle: 'kitchen',
        products: [
          { product_id: 7, position: 1 },
          { product_id: 4, position: 2 },
          { product_id: 3, position: 3 },
        ],
      },
    ]);
    await t.admin('PUT', '/admin/v1/shops/lists/orders', [
      order(
        1,
        1,
        [
          [1, 2],
          [3, 1],
        ],
        { customer: { id: 900 } },
      ),
      order(2, 2, [
        [1, 1],
        [3, 1],
      ]),
      order(3, 20, [[4, 10]]), // many units, long ago: top seller, weak trend
      order(
        4,
        0.5,
        [
          [6, 3],
          [1, 1],
        ],
        { customer: { id: 900 } },
      ),
      order(5, 100, [[7, 50]]), // outside every window
      order(6, 1, [[2, 40]], { cancelled_at: new Date(now).toISOString() }), // cancelled: never counts
      order(7, 3, [
        [3, 1],
        [7, 1],
      ]),
    ]);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const ids = async (path: string, query = '', status = 200) => {
    const res = await t.app.inject(`/api/v1/products/${path}?key=${key}&${query}`);
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data.map((p: { id: number }) => p.id) as number[];
  };
  const error = async (path: string, query: string) => {
    const res = await t.app.inject(`/api/v1/products/${path}?key=${key}&${query}`);
    expect(res.statusCode).toBe(400);
    return res.json().error as string;
  };

  it('ranks trending by decayed sales in the window, without cancelled or old orders', async () => {
    // 1: 2·0.5^(1/7)+1·0.5^(2/7)+1·0.5^(0.5/7) ≈ 3.6; 4: 10·0.5^(20/7) ≈ 1.4; 6: ≈ 2.9; 3: ≈ 2.4
    expect(await ids('trending_products', 'limit=10')).toEqual([1, 6, 3, 4, 7]);
    expect(await ids('trending_products')).toHaveLength(5);
    expect(await ids('trending_products', 'shop_product_ids=1,6')).toEqual([3, 4, 7]);
    expect(await ids('trending_products', 'any_variant_price_less_than=0')).toEqual([]);
    expect(await error('trending_products', 'limit=0')).toContain('limit');
    expect(await error('trending_products', 'shop_product_ids=a')).toContain('shop_product_ids');
  });

  it('sees new orders at once, without a restart', async () => {
    await t.admin('PUT', '/admin/v1/shops/lists/orders', [order(8, 0.1, [[7, 30]])]);
    expect((await ids('trending_products'))[0]).toBe(7);
    await t.admin('PUT', '/admin/v1/shops/lists/orders', [
      order(8, 0.1, [[7, 30]], { cancelled_at: new Date().toISOString() }),
    ]);
    expect((await ids('trending_products'))[0]).toBe(1);
  });

  it("follows the shop's trending window and half-life", async () => {
    expect(
      (
        await t.admin('PATCH', '/admin/v1/shops/lists', {
          settings: { trending_window_days: 10, trending_half_life_days: 100, trending_counts: 'units' },
        })
      ).statusCode,
    ).toBe(200);
    expect(await ids('trending_products', 'limit=10')).toEqual([1, 6, 3, 7]); // product 4 sold 20 days ago: outside
    // The default counts orders: 1 and 3 are in three orders each (1's more recent), 6, 7 and 4 in one.
    await t.admin('PATCH', '/admin/v1/shops/lists', {
      settings: { trending_window_days: null, trending_half_life_days: null, trending_counts: null },
    });
    expect(await ids('trending_products', 'limit=10')).toEqual([1, 3, 6, 7, 4]);
    await t.admin('PATCH', '/admin/v1/shops/lists', { settings: UNITS });
    expect(
      (await t.admin('PATCH', '/admin/v1/shops/lists', { settings: { trending_counts: 'baskets' } })).statusCode,
    ).toBe(422);
    expect(
      (await t.admin('PATCH', '/admin/v1/shops/lists', { settings: { trending_window_days: 0 } })).statusCode,
    ).toBe(422);
  });

  it('ranks top sellers by units in the last 90 days', async () => {
    expect(await ids('top_sellers', 'limit=10')).toEqual([4, 1, 3, 6, 7]); // 3 and 6 tie at 3 units: by id
    expect(await ids('top_sellers', 'shop_product_ids=4&limit=2')).toEqual([1, 3]);
  });

  it('lists collections in position order, and by sales or estimated conversion', async () => {
    expect(await error('collections', '')).toBe('Missing required endpoint argument: shop_collection_ids.');
    expect(await ids('collections', 'shop_collection_ids=10')).toEqual([2, 1, 3]);
    expect(await ids('collections', 'shop_collection_ids=10&filter_oos=no')).toEqual([2, 1, 3, 5]);
    expect(await ids('collections', 'shop_collection_ids=10,11&limit=10')).toEqual([2, 1, 3, 7, 4]);
    expect(await ids('collections', 'shop_collection_ids=10,11&shop_product_ids=1&limit=10')).toEqual([2, 3, 7, 4]);
    expect(await ids('collections', 'shop_collection_ids=10,11&smart_sort=top_sellers&limit=10')).toEqual([
      4, 1, 3, 7, 2,
    ]);
    // Conversion: product 2 is viewed a lot and never bought; 3 and 1 sell.
    for (let i = 0; i < 30; i++) {
      await t.app.inject({
        method: 'POST',
        url:
          `/api/v1/analytics/event?key=${key}&subject=user&verb=viewed` +
          `&noun=product&shop_product_handle=product-2&uuid=${U}`,
      });
    }
    await t.services.catalogIndex.reload(shopId);
    const smart = await ids('collections', 'shop_collection_ids=10&smart_sort=yes');
    expect(smart.indexOf(2)).toBe(smart.length - 1);
    expect(await error('collections', 'shop_collection_ids=10&smart_sort=best')).toContain('smart_sort');
    expect(await error('collections', 'shop_collection_ids=x')).toContain('shop_collection_ids');
  });

  it('searches titles first, with prefixes, typos and product ids, and needs a key and a query', async () => {
    expect((await ids('search', 'query=tent')).slice(0, 2).sort()).toEqual([1, 2]);
    expect(await ids('search', 'query=tent')).toContain(3); // "tent" in its description, ranked lower
    expect((await ids('search', 'query=tent')).indexOf(3)).toBeGreaterThan(1);
    expect(await ids('search', 'query=lant')).toEqual([3]);
    expect(await ids('search', 'query=lantren')).toEqual([3]);
    expect((await ids('search', 'query=4'))[0]).toBe(4);
    expect(await error('search', '')).toBe('Missing required endpoint argument: query.');
    expect(await error('search', 'query=tent&limit=0')).toContain('limit');
    // above the maximum: served at 50
    expect((await t.app.inject(`/api/v1/products/search?key=${key}&query=t&limit=51`)).statusCode).toBe(200);
    const noKey = await t.app.inject('/api/v1/products/search?query=tent');
    expect(noKey.json()).toEqual({
      error: 'Missing API key. Pass your key in the key query parameter.',
      code: 'missing_parameter',
      parameter: 'key',
    });
  });

  const STRANGER = '7d444840-9dc0-11d1-b245-5ffdce74fad2';
  it("answers viewed-related without a visitor from no one's views: best sellers", async () => {
    // A stranger's view of the best seller: it had become the anonymous answer's input, and so left it.
    const view = await t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${key}&subject=user&verb=viewed&noun=product` +
        `&shop_product_handle=product-4&uuid=${STRANGER}`,
    });
    expect(view.statusCode, view.body).toBe(200);
    const best = await ids('top_sellers', 'limit=10');
    expect(best).toContain(4);
    expect(await ids('viewed-related', 'limit=10&bust_cache=yes')).toEqual(best);
  });

  it('personalizes search with what the visitor viewed', async () => {
    const plain = await ids('search', 'query=light');
    expect(plain.slice(0, 2).sort()).toEqual([3, 6]);
    const V = '0a0b0c0d-1111-4222-8333-444455556666';
    await t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${key}&subject=user&verb=viewed` +
        `&noun=product&shop_product_handle=product-2&uuid=${V}`,
    });
    // The visitor looked at a Fjell tent: the Fjell head lamp comes before the Lumo lantern.
    expect((await ids('search', `query=light&uuid=${V}`))[0]).toBe(6);
  });

  it('recommends what was bought together, then best sellers, never empty', async () => {
    await ids('recommended', 'shop_product_ids=1'); // the first request starts the shop's model
    await t.services.models.settled(shopId);
    const together = await ids('recommended', 'shop_product_ids=1&limit=10');
    expect(together.slice(0, 2)).toEqual([3, 6]);
    expect(together).not.toContain(1);
    expect(await ids('recommended', 'limit=3')).toEqual([4, 1, 3]);
    expect((await ids('recommended', 'shop_product_ids=424242')).length).toBeGreaterThan(0);
  });

  it('finds similar products by content and needs input products', async () => {
    expect(await error('similar_products', '')).toBe('Missing required endpoint argument: shop_product_ids.');
    t.services.models.get(shopId); // content neighbours are built with the shop's model
    await t.services.models.settled(shopId);
    const similar = await ids('similar_products', 'shop_product_ids=1&limit=10&bust_cache=yes');
    // Footprint: same type, vendor, a shared tag and title word; Head Lamp: same vendor; then best sellers.
    expect(similar.slice(0, 2)).toEqual([2, 6]);
    expect(similar).not.toContain(1);
  });

  it("lists a customer's purchases, most recent first, with quantities", async () => {
    expect(await error('purchased', '')).toBe('Missing required endpoint argument: shop_customer_id.');
    const res = await t.app.inject(`/api/v1/products/purchased?key=${key}&shop_customer_id=900`);
    // 1 and 6 were last bought in the same order: by id.
    expect(res.json().data.map((p: { id: number }) => p.id)).toEqual([1, 6, 3]);
    expect(res.json().metadata).toEqual({ source: 'list:purchased', purchased_quantity: { 1: 3, 6: 3, 3: 1 } });
    expect(await ids('purchased', 'shop_customer_id=901')).toEqual([]);
    expect(await error('purchased', 'shop_customer_id=x')).toContain('shop_customer_id');
  });

  it('describes every list endpoint at /api/v1/sources, from the route schemas', async () => {
    const res = await t.app.inject('/api/v1/sources');
    const paths = res.json().data.map((s: { path: string }) => s.path);
    expect(paths).toEqual([
      '/products/collections',
      '/products/for_you',
      '/products/purchased',
      '/products/recently_viewed',
      '/products/recommended',
      '/products/search',
      '/products/similar_products',
      '/products/static',
      '/products/top_sellers',
      '/products/trending_products',
      '/products/viewed',
      '/products/viewed_together',
      '/products/viewed-related',
    ]);
    const collections = res.json().data.find((s: { path: string }) => s.path === '/products/collections');
    expect(collections.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['shop_collection_ids', 'smart_sort', 'limit', 'filter_oos', 'country_code']),
    );
  });

  it("serves every list as a ruleset endpoint output, the endpoint's query winning", async () => {
    const created = await t.admin('POST', '/admin/v1/shops/lists/rulesets', {
      name: 'lists',
      filter_input_products: false,
      rules: [
        {
          logic: [{ rules: [{ type: 'customer', operator: 'is_logged_in' }] }],
          output: [{ type: 'endpoint', endpoint: '/products/purchased' }],
          exit_if_matched: true,
        },
        {
          logic: [],
          output: [
            { type: 'endpoint', endpoint: '/products/trending_products?limit=2' },
            { type: 'endpoint', endpoint: '/products/collections?shop_collection_ids=11' },
          ],
        },
      ],
    });
    const id = created.json().ruleset.id;
    const guest = await t.app.inject(`/api/v1/custom/id/${id}?key=${key}&limit=10`);
    expect(guest.json().data.map((p: { id: number }) => p.id)).toEqual([1, 6, 7, 4, 3]);
    const customer = await t.app.inject(`/api/v1/custom/id/${id}?key=${key}&shop_customer_id=900`);
    expect(customer.json().data.map((p: { id: number }) => p.id)).toEqual([1, 6, 3]);
    const broken = await t.admin('POST', '/admin/v1/shops/lists/rulesets', {
      name: 'b',
      rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/collections' }] }],
    });
    expect(broken.statusCode).toBe(422);
    expect(broken.json().problems).toEqual([
      { path: 'rules[0].output[0].endpoint', message: 'Missing required endpoint argument: shop_collection_ids.' },
    ]);
    // What only the caller can give is checked when the list runs: a guest has no purchases to list.
    const needsCustomer = await t.admin('POST', '/admin/v1/shops/lists/rulesets', {
      name: 'c',
      rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/purchased' }] }],
    });
    const answer = await t.app.inject(`/api/v1/custom/id/${needsCustomer.json().ruleset.id}?key=${key}`);
    expect(answer.json().metadata.errors[0]).toMatchObject({ code: 'invalid_endpoint_parameter', rule_index: 0 });
    // The endpoint's own query is read once per ruleset: a second answer, and a customer's, read it alike.
    const again = await t.app.inject(`/api/v1/custom/id/${needsCustomer.json().ruleset.id}?key=${key}&bust_cache=yes`);
    expect(again.json().metadata.errors).toEqual(answer.json().metadata.errors);
    const guestAgain = await t.app.inject(`/api/v1/custom/id/${id}?key=${key}&limit=10&bust_cache=yes`);
    expect(guestAgain.body).toBe(guest.body);
    // Named the platform's way, the endpoint's own customer still wins over the caller's, and serves a guest.
    const aliased = await t.admin('POST', '/admin/v1/shops/lists/rulesets', {
      name: 'd',
      filter_input_products: false,
      rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/purchased?shopify_customer_id=900' }] }],
    });
    expect(aliased.statusCode, aliased.body).toBe(201);
    const purchasesOf = async (query: string) => {
      const res = await t.app.inject(`/api/v1/custom/id/${aliased.json().ruleset.id}?key=${key}${query}`);
      expect(res.json().metadata.errors ?? []).toEqual([]);
      return res.json().data.map((p: { id: number }) => p.id);
    };
    expect(await purchasesOf('')).toEqual([1, 6, 3]);
    expect(await purchasesOf('&shop_customer_id=901')).toEqual([1, 6, 3]);
  });
});
