import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const tracked = { inventory_management: 'shop', inventory_policy: 'deny' as const };
const ids = (list: { id: number }[]) => list.map((p) => p.id);

const catalog = [
  productInput(1, { tags: 'tent, camping' }),
  productInput(2, { tags: 'camping', variants: [{ id: 21, price: '20.00', ...tracked, inventory_quantity: 0 }] }),
  productInput(3, { tags: 'camping, stove' }),
  productInput(4, { tags: 'stove' }),
  productInput(5, { status: 'draft', tags: 'camping' }),
  productInput(6, { tags: 'gift' }),
  productInput(7, { tags: 'gift, camping' }),
  productInput(8),
  productInput(9),
];

/** Rules covering products, carts with exit-if-matched, endpoint fallbacks and tags. */
const upsells = {
  name: 'Upsells',
  rules: [
    {
      name: 'tent upsell',
      logic: [{ rules: [{ type: 'product', operator: 'contains_any', products: [{ product_id: 1 }] }] }],
      output: [{ type: 'product', products: [{ product_id: 8 }, { product_id: 9 }] }],
    },
    {
      name: 'big cart',
      logic: [{ rules: [{ type: 'cart_subtotal', operator: 'greater_than', value: '100' }] }],
      output: [{ type: 'collection', collection_id: 70 }],
      exit_if_matched: true,
    },
    { name: 'fallback', logic: [], output: [{ type: 'endpoint', endpoint: '/products/static?ids=3,4' }] },
  ],
};

describe.each(backends())('GET /api/v1/custom/id/{ruleset_id} on $name', (backend) => {
  let t: TestApp;
  let key: string;
  let otherKey: string;
  let upsellId: number;
  const made: Record<string, number> = {};

  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('camp', { scopes: ['read_markets'], timezone: 'America/New_York' })).public;
    otherKey = (await t.createShop('other')).public;
    await t.admin('PUT', '/admin/v1/shops/camp/products', catalog);
    await t.admin('PUT', '/admin/v1/shops/camp/collections', [
      {
        id: 70,
        title: 'Gifts',
        handle: 'gifts',
        products: [
          { product_id: 7, position: 1 },
          { product_id: 6, position: 2 },
          { product_id: 2, position: 3 },
        ],
      },
    ]);
    await t.admin('PUT', '/admin/v1/shops/camp/customers', [
      { id: 500, email: 'vip@example.com', tags: 'VIP' },
      { id: 501, tags: '' },
    ]);
    await t.admin('PUT', '/admin/v1/shops/camp/markets', [
      { id: 1, name: 'EU', countries: ['DE'], currency: 'EUR', price_adjustment_percent: 10, product_ids: [1, 3, 8] },
    ]);
    const now = new Date().toISOString();
    await t.admin('PUT', '/admin/v1/shops/camp/orders', [
      { id: 1, created_at: now, customer: { id: 500 }, line_items: [{ product_id: 4, quantity: 1 }] },
      {
        id: 2,
        created_at: now,
        line_items: [
          { product_id: 7, quantity: 5 },
          { product_id: 3, quantity: 2 },
        ],
      },
    ]);
    const create = async (name: string, body: unknown) => {
      const res = await t.admin('POST', '/admin/v1/shops/camp/rulesets', body);
      expect(res.statusCode, res.body).toBe(201);
      made[name] = res.json().ruleset.id;
      return made[name]!;
    };
    upsellId = await create('upsells', upsells);
    const single = (name: string, condition: object, extra: object = {}) =>
      create(name, {
        name,
        ...extra,
        rules: [{ logic: [{ rules: [condition] }], output: [{ type: 'product', products: [{ product_id: 8 }] }] }],
      });
    await single('weekend', { type: 'day_of_week', operator: 'contains_any', value: 'sat,sun' });
    await single('vip', { type: 'customer_tag', operator: 'contains_any', value: 'vip' });
    await single('germany', { type: 'country', operator: 'contains_any', value: 'DE' });
    await single('blog', { type: 'url', operator: 'contains', value: '/blogs/' });
    await single('many lines', { type: 'cart_line_count', operator: 'greater_than_or_equal_to', value: '3' });
    await single('many items', { type: 'cart_item_count', operator: 'between', value: '5,10' });
    await single('variant', { type: 'variant', operator: 'contains_any', value: '12' });
    await single('off', { type: 'anything' }, { enabled: false });
    const tags = {
      name: 'tags',
      filter_oos: true,
      filter_input_products: true,
      enabled: true,
      rules: [
        {
          logic: [{ rules: [{ type: 'product_tag', operator: 'contains_any', value: 'stove' }] }],
          output: [{ type: 'matching_input_tags' }],
          exit_if_matched: false,
        },
        {
          logic: [],
          output: [
            { type: 'tag', value: 'camping' },
            { type: 'endpoint', endpoint: '/products/nowhere' },
            { type: 'input_products' },
          ],
          exit_if_matched: false,
        },
      ],
    };
    // Saving an unknown endpoint is refused now; one stored before that check still serves, with an error entry.
    expect((await t.admin('POST', '/admin/v1/shops/camp/rulesets', tags)).statusCode).toBe(422);
    const shopId = (await t.admin('GET', '/admin/v1/shops/camp')).json().shop.id;
    made.tags = (await t.services.store.createRuleset(shopId, tags)).id;
    await t.services.catalogIndex.reload(shopId);
    await create('keeps inputs', {
      name: 'keeps inputs',
      filter_input_products: false,
      filter_oos: false,
      rules: [
        {
          logic: [],
          output: [
            { type: 'input_products' },
            { type: 'product', products: [{ product_id: 2 }, { product_id: 1, variant_ids: [12] }] },
          ],
        },
      ],
    });
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const get = (id: number | string, query = '') => t.app.inject(`/api/v1/custom/id/${id}?key=${key}&${query}`);
  const answer = async (id: number, query = '') => {
    const res = await get(id, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const expect400 = async (query: string, param: string) => {
    const res = await get(upsellId, query);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(param);
  };

  it("returns the matched rules' products with metadata", async () => {
    const body = await answer(upsellId, 'shop_product_ids=1');
    expect(ids(body.data)).toEqual([8, 9, 3, 4]);
    expect(ids(body.metadata.input_products)).toEqual([1]);
    expect(body.metadata.matched_rules.map((r: { name: string }) => r.name)).toEqual(['tent upsell', 'fallback']);
    expect(body.metadata.unmatched_rules.map((r: { name: string }) => r.name)).toEqual(['big cart']);
    expect(body.metadata.unevaluated_rules).toEqual([]);
    expect(body.metadata.errors).toEqual([]);
    expect(body.metadata.matched_rules[0]).toEqual({
      name: 'tent upsell',
      enabled: true,
      logic: upsells.rules[0]!.logic.map((g) => ({
        rules: g.rules.map((c) => ({ ...c, products: [{ product_id: 1, variant_ids: [] }] })),
      })),
      output: [
        {
          type: 'product',
          products: [
            { product_id: 8, variant_ids: [] },
            { product_id: 9, variant_ids: [] },
          ],
        },
      ],
      exit_if_matched: false,
    });
    expect(Object.keys(body.metadata)).toEqual([
      'input_products',
      'matched_rules',
      'unmatched_rules',
      'unevaluated_rules',
      'filtered_oos_products',
      'filtered_input_products',
      'errors',
      'source',
    ]);
    expect(body.metadata.source).toMatch(/^ruleset:\d+:v1$/);
  });

  it('stops at a matched exit_if_matched rule and lists the rest as unevaluated', async () => {
    const body = await answer(upsellId, 'shop_product_ids=1&cart_subtotal=150.00');
    expect(ids(body.data)).toEqual([8, 9, 7, 6]);
    expect(body.metadata.unevaluated_rules.map((r: { name: string }) => r.name)).toEqual(['fallback']);
    expect(ids(body.metadata.filtered_oos_products)).toEqual([2]);
    expect(ids((await answer(upsellId, 'shop_product_ids=1&cart_subtotal=100')).data)).toEqual([8, 9, 3, 4]);
  });

  it('applies limit, and filter_oos overrides the ruleset', async () => {
    expect(ids((await answer(upsellId, 'shop_product_ids=1&limit=1')).data)).toEqual([8]);
    expect(ids((await answer(upsellId, 'cart_subtotal=150&filter_oos=no')).data)).toEqual([7, 6, 2]);
    for (const bad of ['0', '-1', 'x']) await expect400(`limit=${bad}`, 'limit');
    expect((await get(upsellId, 'shop_product_ids=1&limit=101')).statusCode).toBe(200); // served at the maximum
    await expect400('filter_oos=perhaps', 'filter_oos');
  });

  it('removes input products unless the ruleset keeps them, and keeps listed variants only', async () => {
    const filtered = await answer(made.tags!, 'shop_product_ids=3');
    expect(ids(filtered.metadata.filtered_input_products)).toEqual([3]);
    expect(ids(filtered.data)).not.toContain(3);
    const kept = await answer(made['keeps inputs']!, 'shop_product_ids=3');
    expect(ids(kept.data)).toEqual([3, 2, 1]);
    expect(kept.data[2].variants.map((v: { id: number }) => v.id)).toEqual([12]);
  });

  it('resolves tag, matching-input-tag and endpoint outputs, reporting unknown endpoints in errors', async () => {
    const body = await answer(made.tags!, 'shop_product_ids=4');
    // matching_input_tags (stove): 3 sold 2 units, 4 sold 1; then
    // tag camping: 7 (5 sold), 3, then 1 by id; 2 is out of stock.
    expect(ids(body.data)).toEqual([3, 7, 1]);
    expect(ids(body.metadata.filtered_input_products)).toEqual([4]);
    expect(ids(body.metadata.filtered_oos_products)).toEqual([2]);
    expect(body.metadata.errors).toEqual([
      {
        code: 'unknown_endpoint',
        message: 'Rule 2 names /products/nowhere, which is not a list endpoint.',
        rule_index: 1,
      },
    ]);
  });

  it('reports unknown input ids in errors', async () => {
    const body = await answer(upsellId, 'shop_product_ids=1,424242&shop_variant_ids=999');
    expect(body.metadata.errors).toEqual([
      { code: 'unknown_product', message: 'Product 424242 is not in the catalog.', id: 424242 },
      { code: 'unknown_variant', message: 'Variant 999 is not in the catalog.', id: 999 },
    ]);
    await expect400('shop_product_ids=1,x', 'shop_product_ids');
    await expect400('shop_variant_ids=-3', 'shop_variant_ids');
  });

  it("reads time in the shop's time zone, and refuses an unreadable time", async () => {
    const weekend = made.weekend!;
    // Saturday 03:00 UTC is still Friday evening in New York.
    expect(ids((await answer(weekend, 'time=2026-11-21T03:00:00Z')).data)).toEqual([]);
    expect(ids((await answer(weekend, 'time=2026-11-21T15:00:00Z')).data)).toEqual([8]);
    expect(ids((await answer(weekend, `time=${Date.parse('2026-11-22T15:00:00Z') / 1000}`)).data)).toEqual([8]);
    expect(ids((await answer(weekend, `time=${encodeURIComponent('Sun, 22 Nov 2026 15:00:00 +0000')}`)).data)).toEqual([
      8,
    ]);
    await expect400('time=next tuesday', 'time');
  });

  it('matches customer, country, url, cart and variant inputs; absent inputs never match', async () => {
    expect(ids((await answer(made.vip!, 'shop_customer_id=500')).data)).toEqual([8]);
    expect(ids((await answer(made.vip!, 'shop_customer_id=501')).data)).toEqual([]);
    expect(ids((await answer(made.vip!)).data)).toEqual([]);
    const de = await answer(made.germany!, 'country_code=de');
    expect(ids(de.data)).toEqual([8]);
    expect(de.data[0].variants[0].price).toBe('11.00');
    expect(ids((await answer(made.germany!, 'country_code=FR')).data)).toEqual([]);
    expect(
      ids((await answer(made.blog!, `url=${encodeURIComponent('https://shop.example/blogs/news')}`)).data),
    ).toEqual([8]);
    expect(ids((await answer(made.blog!)).data)).toEqual([]);
    expect(ids((await answer(made['many lines']!, 'cart_line_count=3')).data)).toEqual([8]);
    expect(ids((await answer(made['many lines']!, 'cart_line_count=2')).data)).toEqual([]);
    expect(ids((await answer(made['many items']!, 'cart_item_count=10')).data)).toEqual([8]);
    expect(ids((await answer(made.variant!, 'shop_variant_ids=12')).data)).toEqual([8]);
    await expect400('shop_customer_id=abc', 'shop_customer_id');
    await expect400('cart_subtotal=lots', 'cart_subtotal');
    await expect400('cart_line_count=-1', 'cart_line_count');
    await expect400('cart_item_count=2.5', 'cart_item_count');
    await expect400('country_code=Germany', 'country_code');
    // A JSON body may hold a lone surrogate a query string cannot: read as U+FFFD, as a query string's would be.
    const posted = await t.app.inject({
      method: 'POST',
      url: `/api/v1/custom/id/${made.blog!}?key=${key}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"url":"https://shop.example/blogs/news/\\udfff","uuid":"\\ud800"}',
    });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(ids(posted.json().data)).toEqual([8]);
  });

  it('honours the common parameters', async () => {
    const body = await answer(
      upsellId,
      'shop_product_ids=1&metafields=yes&variant_metafields=yes' +
        '&uuid=2f1c7d0e-1111-4a4a-8888-123456789abc&bust_cache=yes',
    );
    expect(body.data[0].metafields).toHaveLength(1);
    expect(body.data[0].variants[0].metafields).toEqual([]);
    expect(body.metadata.input_products[0].metafields).toHaveLength(1);
    const pretty = await get(upsellId, 'format=pretty');
    expect(pretty.body).toMatch(/^\{\n {2}"data": \[/);
    // Any other format is ignored (storefront code sends typos), never a 400.
    const other = await get(upsellId, 'format=yaml');
    expect(other.statusCode).toBe(200);
    expect(other.body).not.toMatch(/^\{\n/);
    await expect400('metafields=si', 'metafields');
    await expect400('variant_metafields=2', 'variant_metafields');
    await expect400('bust_cache=maybe', 'bust_cache');
    await expect400(`url=${'x'.repeat(3000)}`, 'url');
  });

  it('answers 404 for unknown, disabled or foreign rulesets and 400 for a bad id', async () => {
    expect((await get(424242)).json()).toEqual({ error: 'Ruleset 424242 not found.', code: 'unknown_ruleset' });
    expect((await get(made.off!)).statusCode).toBe(404);
    const foreign = await t.app.inject(`/api/v1/custom/id/${upsellId}?key=${otherKey}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: `Ruleset ${upsellId} not found.`, code: 'unknown_ruleset' });
    expect((await get('abc')).statusCode).toBe(400);
    expect((await get('0')).json().error).toBe('Parameter ruleset_id must be a positive integer id, got "0".');
    expect((await t.app.inject(`/api/v1/custom/id/${upsellId}`)).statusCode).toBe(400);
  });

  it('takes a saved change on the next request', async () => {
    const changed = {
      ...upsells,
      rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 6 }] }] }],
    };
    expect((await t.admin('PUT', `/admin/v1/shops/camp/rulesets/${upsellId}`, changed)).statusCode).toBe(200);
    expect(ids((await answer(upsellId, 'shop_product_ids=1')).data)).toEqual([6]);
    await t.admin('PUT', `/admin/v1/shops/camp/rulesets/${upsellId}`, upsells);
  });
});
