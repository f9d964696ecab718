import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const SEED_PRODUCT_FIELDS = [
  'id',
  'title',
  'body_html',
  'vendor',
  'product_type',
  'created_at',
  'updated_at',
  'published_at',
  'handle',
  'template_suffix',
  'published_scope',
  'tags',
  'variants',
  'options',
  'images',
  'image',
];
const SEED_VARIANT_FIELDS = [
  'id',
  'product_id',
  'title',
  'price',
  'compare_at_price',
  'sku',
  'position',
  'inventory_policy',
  'inventory_management',
  'inventory_quantity',
  'old_inventory_quantity',
  'fulfillment_service',
  'option1',
  'option2',
  'option3',
  'taxable',
  'requires_shipping',
  'barcode',
  'grams',
  'weight',
  'weight_unit',
  'image_id',
  'inventory_item_id',
  'tax_code',
  'created_at',
  'updated_at',
];

const tracked = { inventory_management: 'shop', inventory_policy: 'deny' as const };

/** A small catalog covering every visibility and stock rule. */
const catalog = [
  productInput(1),
  productInput(2, {
    variants: [
      { id: 21, price: '20.00', ...tracked, inventory_quantity: 0 },
      { id: 22, price: '21.00', ...tracked, inventory_quantity: -2 },
    ],
  }),
  productInput(3, {
    variants: [
      { id: 31, price: '5.00', inventory_management: 'shop', inventory_policy: 'continue', inventory_quantity: 0 },
    ],
  }),
  productInput(4, { variants: [{ id: 41, price: '7.00', inventory_management: null, inventory_quantity: 0 }] }),
  productInput(5, { status: 'draft' }),
  productInput(6, { published_at: null }),
  productInput(7, { tags: 'sale, Exclude_Rebound' }),
  productInput(8, {
    variants: [
      { id: 81, price: '30.00', ...tracked, inventory_quantity: 3 },
      { id: 82, price: '35.00', ...tracked, inventory_quantity: 3 },
    ],
  }),
  productInput(9, {
    variants: [
      {
        id: 91,
        price: '50.00',
        ...tracked,
        inventory_quantity: 3,
        metafields: [{ id: 991, namespace: 'v', key: 'k', value: 'x' }],
      },
    ],
  }),
];

describe.each(backends())('GET /api/v1/products/static on $name', (backend) => {
  let t: TestApp;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    t = await startApp(backend);
    const shop = await t.createShop('acme', { scopes: ['read_markets'] });
    key = shop.public;
    otherKey = (await t.createShop('other')).public;
    expect((await t.admin('PUT', '/admin/v1/shops/acme/products', catalog)).statusCode).toBe(200);
    expect(
      (
        await t.admin('PUT', '/admin/v1/shops/acme/markets', [
          {
            id: 1,
            name: 'EU',
            position: 1,
            countries: ['DE', 'AT'],
            currency: 'EUR',
            price_adjustment_percent: 10,
            fixed_prices: [{ variant_id: 81, price: '99.00', compare_at_price: '120.00' }],
            product_ids: [1, 8, 9],
          },
          { id: 2, name: 'France (off)', position: 0, active: false, countries: ['FR'], currency: 'EUR' },
          {
            id: 3,
            name: 'Europe wide',
            position: 5,
            countries: ['DE', 'FR'],
            currency: 'EUR',
            price_adjustment_percent: 50,
          },
        ])
      ).statusCode,
    ).toBe(200);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const get = (query: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/v1/products/static?${query}`, headers });
  const ids = async (query: string) => {
    const res = await get(`key=${key}&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as { id: number }[]).map((p) => p.id);
  };
  const expect400 = async (query: string, param: string) => {
    const res = await get(`key=${key}&${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(param);
    return res.json().error as string;
  };

  it('returns the seed product shape, field for field, without metafields by default', async () => {
    const res = await get(`key=${key}&ids=1`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const [p] = res.json().data;
    expect(Object.keys(p)).toEqual(SEED_PRODUCT_FIELDS);
    expect(Object.keys(p.variants[0])).toEqual(SEED_VARIANT_FIELDS);
    expect(p).toMatchObject({
      id: 1,
      handle: 'product-1',
      vendor: 'Acme',
      tags: 'alpha, beta',
      template_suffix: null,
      published_scope: 'web',
    });
    expect(p.variants[1]).toMatchObject({ id: 12, price: '12.50', compare_at_price: '15.00', inventory_quantity: 0 });
    expect(p.image).toEqual(p.images[0]);
    expect(Object.keys(p.options[0])).toEqual(['id', 'product_id', 'name', 'position', 'values']);
  });

  it('answers ids and handles in the order given, ids first, each once', async () => {
    expect(await ids('ids=8,1,3&limit=10')).toEqual([8, 1, 3]);
    expect(await ids('handles=product-9,product-1')).toEqual([9, 1]);
    expect(await ids('ids=4&handles=product-3,product-4')).toEqual([4, 3]);
    expect(await ids('ids= 8 , 1 ')).toEqual([8, 1]);
    expect(await ids('ids=12345,1&handles=nope')).toEqual([1]);
  });

  it('never returns unpublished, draft or excluded products', async () => {
    expect(await ids('ids=5,6,7,1&filter_oos=no')).toEqual([1]);
  });

  it('drops out-of-stock products unless filter_oos=no; continue-selling and untracked stay', async () => {
    expect(await ids('ids=2,3,4')).toEqual([3, 4]);
    expect(await ids('ids=2,3,4&filter_oos=NO')).toEqual([2, 3, 4]);
    expect(await ids('ids=2,3,4&filter_oos=yes')).toEqual([3, 4]);
    await expect400('ids=1&filter_oos=maybe', 'filter_oos');
  });

  it('limits to 5 by default and to limit when given', async () => {
    expect(await ids('ids=1,3,4,8,9,2&filter_oos=no')).toHaveLength(5);
    expect(await ids('ids=1,3,4,8,9&limit=2')).toEqual([1, 3]);
    for (const bad of ['0', 'abc', '-1', '2.5'])
      expect(await expect400(`ids=1&limit=${bad}`, 'limit')).toMatch(/1 or more/);
    // Above the maximum is served at the maximum, as storefront code expects.
    expect(await ids('ids=1,3,4,8,9&limit=101')).toEqual([1, 3, 4, 8, 9]);
  });

  it('adds product and variant metafields on request', async () => {
    const res = await get(`key=${key}&ids=9&metafields=yes&variant_metafields=yes`);
    const [p] = res.json().data;
    expect(Object.keys(p).at(-1)).toBe('metafields');
    expect(p.metafields[0]).toMatchObject({
      id: 98,
      namespace: 'specs',
      key: 'material',
      value: 'wool',
      owner_id: 9,
      owner_resource: 'product',
    });
    expect(p.variants[0].metafields[0]).toMatchObject({ id: 991, owner_id: 91, owner_resource: 'variant' });
    const plain = (await get(`key=${key}&ids=9&metafields=no&variant_metafields=no`)).json().data[0];
    expect(plain.metafields).toBeUndefined();
    expect(plain.variants[0].metafields).toBeUndefined();
    const onlyVariants = (await get(`key=${key}&ids=9&variant_metafields=yes`)).json().data[0];
    expect(onlyVariants.metafields).toBeUndefined();
    expect(onlyVariants.variants[0].metafields).toHaveLength(1);
    // Storefront code spells the flags many ways: true / false and 1 / 0 as well as yes / no, any case.
    expect(
      (await get(`key=${key}&ids=9&metafields=1&variant_metafields=TRUE`)).json().data[0].variants[0].metafields,
    ).toHaveLength(1);
    expect((await get(`key=${key}&ids=9&metafields=False`)).json().data[0].metafields).toBeUndefined();
    await expect400('ids=9&metafields=2', 'metafields');
    await expect400('ids=9&variant_metafields=maybe', 'variant_metafields');
  });

  it('filters by variant price: strict less-than, inclusive bounds, equality', async () => {
    expect(await ids('ids=1,8,9&any_variant_price_less_than=30')).toEqual([1]);
    expect(await ids('ids=1,8,9&any_variant_price_less_than_or_equal_to=30.00')).toEqual([1, 8]);
    expect(await ids('ids=1,8,9&any_variant_price_equal_to=35')).toEqual([8]);
    expect(await ids('ids=1,8,9&variant_price_greater_than=35')).toEqual([9]);
    expect(await ids('ids=1,8,9&variant_price_greater_than_or_equal_to=35')).toEqual([8, 9]);
    // One variant must satisfy every condition at once.
    expect(await ids('ids=1,8,9&variant_price_greater_than=11&any_variant_price_less_than=31')).toEqual([1, 8]);
    expect(await ids('ids=1,8,9&variant_price_greater_than=12.5&any_variant_price_less_than=30')).toEqual([]);
    for (const name of [
      'any_variant_price_less_than',
      'any_variant_price_less_than_or_equal_to',
      'any_variant_price_equal_to',
      'variant_price_greater_than',
      'variant_price_greater_than_or_equal_to',
    ]) {
      await expect400(`ids=1&${name}=cheap`, name);
      await expect400(`ids=1&${name}=-5`, name);
    }
  });

  it('removes failing variants with unset_variants=yes', async () => {
    const kept = (await get(`key=${key}&ids=8&variant_price_greater_than=31&unset_variants=yes`)).json().data[0];
    expect(kept.variants.map((v: { id: number }) => v.id)).toEqual([82]);
    const all = (await get(`key=${key}&ids=8&variant_price_greater_than=31&unset_variants=no`)).json().data[0];
    expect(all.variants.map((v: { id: number }) => v.id)).toEqual([81, 82]);
    await expect400('ids=8&unset_variants=all', 'unset_variants');
  });

  it('prices and limits the catalog by market with country_code', async () => {
    const res = await get(`key=${key}&ids=1,8,3&country_code=de`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.map((p: { id: number }) => p.id)).toEqual([1, 8]); // 3 is outside the market's catalog
    expect(data[0].variants[0]).toMatchObject({ price: '11.00' });
    expect(data[0].variants[1]).toMatchObject({ price: '13.75', compare_at_price: '16.50' });
    expect(data[1].variants[0]).toMatchObject({ price: '99.00', compare_at_price: '120.00' }); // fixed price wins
    expect(data[1].variants[1]).toMatchObject({ price: '38.50' });
    // Price filters read the market's prices.
    expect(await ids('ids=1,8&country_code=DE&any_variant_price_equal_to=99')).toEqual([8]);
    // An inactive market is skipped: FR falls to the next active market (+50 %).
    const fr = (await get(`key=${key}&ids=3&country_code=FR`)).json().data[0];
    expect(fr.variants[0].price).toBe('7.50');
    // No market for the country: base prices, whole catalog.
    const us = (await get(`key=${key}&ids=3,1&country_code=US`)).json().data;
    expect(us.map((p: { id: number }) => p.id)).toEqual([3, 1]);
    expect(us[1].variants[0].price).toBe('10.00');
    await expect400('ids=1&country_code=DEU', 'country_code');
    await expect400('ids=1&country_code=1x', 'country_code');
  });

  it('refuses country_code without the read_markets scope', async () => {
    const res = await get(`key=${otherKey}&ids=1&country_code=DE`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'country_code needs the read_markets scope.', code: 'key_scope' });
  });

  it('pretty-prints with format=pretty and ignores other formats', async () => {
    const res = await get(`key=${key}&ids=1&format=pretty`);
    expect(res.body.startsWith('{\n  "data": [\n')).toBe(true);
    expect(JSON.parse(res.body)).toEqual((await get(`key=${key}&ids=1`)).json());
    const other = await get(`key=${key}&ids=1&format=xml`);
    expect(other.statusCode).toBe(200);
    expect(other.body).not.toMatch(/^\{\n/);
  });

  it('accepts bust_cache=yes and refuses other values', async () => {
    expect(await ids('ids=1&bust_cache=yes')).toEqual([1]);
    await expect400('ids=1&bust_cache=please', 'bust_cache');
  });

  it('validates the id list and needs ids or handles', async () => {
    expect(await expect400('ids=1,abc', 'ids')).toContain('"abc"');
    await expect400('ids=1,-2', 'ids');
    await expect400('ids=0', 'ids');
    await expect400(`ids=${Array.from({ length: 251 }, (_, i) => i + 1).join(',')}`, 'ids');
    expect((await get(`key=${key}`)).json()).toEqual({
      error: 'Missing required endpoint argument: ids or handles.',
      code: 'missing_parameter',
      parameter: 'ids',
    });
    await expect400(`handles=${Array.from({ length: 251 }, (_, i) => `h${i}`).join(',')}`, 'handles');
  });

  it('refuses a parameter given twice, and ignores unknown ones', async () => {
    await expect400('ids=1&limit=1&limit=2', 'limit');
    expect(await ids('ids=1&utm_source=mail&foo[bar]=1')).toEqual([1]);
  });

  it('authenticates by key parameter or X-Api-Key header', async () => {
    expect((await get('ids=1')).json()).toEqual({
      error: 'Missing API key. Pass your key in the key query parameter.',
      code: 'missing_parameter',
      parameter: 'key',
    });
    expect((await get('ids=1')).statusCode).toBe(400);
    const bad = await get('ids=1&key=rb_pub_nope');
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ error: 'Invalid API key.', code: 'invalid_key' });
    const viaHeader = await get('ids=1', { 'x-api-key': key });
    expect(viaHeader.json().data.map((p: { id: number }) => p.id)).toEqual([1]);
    // The header sent twice reaches the app joined (as Node joins it): a 400, as the key given twice is.
    const twice = await get('ids=1', { 'x-api-key': `${key}, ${key}` });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ code: 'invalid_parameter', parameter: 'X-Api-Key' });
  });

  it('keeps shops apart: another shop sees none of these products', async () => {
    const res = await get(`key=${otherKey}&ids=1,8`);
    expect(res.json()).toEqual({ data: [], metadata: { source: 'list:static' } });
  });

  it('sends CORS headers for storefront pages and answers preflight', async () => {
    const res = await get(`key=${key}&ids=1`, { origin: 'https://shop.example' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/products/static',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('GET');
    // An OPTIONS that is no preflight (no Origin) is refused in the error shape, like every refusal.
    const bare = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/products/static' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toEqual({
      error: 'A preflight needs the Origin and Access-Control-Request-Method headers.',
      code: 'bad_request',
    });
  });

  it('reflects catalog writes on the next request', async () => {
    expect(await ids('ids=2')).toEqual([]);
    expect(
      (await t.admin('PUT', '/admin/v1/shops/acme/inventory', [{ variant_id: 21, inventory_quantity: 4 }])).statusCode,
    ).toBe(200);
    const [p] = (await get(`key=${key}&ids=2`)).json().data;
    expect(p.variants[0]).toMatchObject({ inventory_quantity: 4, old_inventory_quantity: 0 });
    expect(
      (
        await t.admin('PUT', '/admin/v1/shops/acme/products', [
          productInput(2, { title: 'Back in stock', variants: [{ id: 21, price: '1.00' }] }),
        ])
      ).statusCode,
    ).toBe(200);
    expect((await get(`key=${key}&ids=2`)).json().data[0].title).toBe('Back in stock');
    expect((await t.admin('DELETE', '/admin/v1/shops/acme/products/2')).statusCode).toBe(204);
    expect(await ids('ids=2')).toEqual([]);
  });
});
