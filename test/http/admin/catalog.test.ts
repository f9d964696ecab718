import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NDJSON_LINE_LIMIT } from '../../../src/http/routes/admin/bulk.js';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

describe.each(backends())('admin catalog imports on $name', (backend) => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('shop')).public;
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const count = async () => (await t.admin('GET', '/admin/v1/shops/shop/products?limit=250')).json().total as number;

  it('upserts products from a JSON array, idempotently by id', async () => {
    const res = await t.admin('PUT', '/admin/v1/shops/shop/products', [productInput(1), productInput(2)]);
    expect(res.json()).toEqual({ upserted: 2 });
    await t.admin('PUT', '/admin/v1/shops/shop/products', [productInput(1), productInput(2)]);
    expect(await count()).toBe(2);
  });

  it('accepts NDJSON bodies', async () => {
    const body = [productInput(3), productInput(4)].map((p) => JSON.stringify(p)).join('\n');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/admin/v1/shops/shop/products',
      headers: { authorization: `Bearer ${(t as TestApp).config.adminToken}`, 'content-type': 'application/x-ndjson' },
      payload: `${body}\n`,
    });
    expect(res.json()).toEqual({ upserted: 2 });
    const broken = await t.app.inject({
      method: 'PUT',
      url: '/admin/v1/shops/shop/products',
      headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/x-ndjson' },
      payload: `${JSON.stringify(productInput(5))}\n{oops`,
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toContain('Line 2');
  });

  it('reads NDJSON line by line: a body larger than one line cap passes, a line over the cap is a 413', async () => {
    await t.createShop('lines');
    const ndjson = (payload: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/admin/v1/shops/lines/products',
        headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/x-ndjson' },
        payload,
      });
    const long = 'x'.repeat(NDJSON_LINE_LIMIT / 8);
    const lines = Array.from({ length: 12 }, (_, i) => JSON.stringify(productInput(40 + i, { body_html: long })));
    const body = `${lines.join('\r\n')}\n`;
    expect(body.length).toBeGreaterThan(NDJSON_LINE_LIMIT);
    expect((await ndjson(body)).json()).toEqual({ upserted: 12 });
    const overCap = JSON.stringify(productInput(60, { body_html: 'x'.repeat(NDJSON_LINE_LIMIT) }));
    const tooLong = await ndjson(`${lines[0]}\n${overCap}\n`);
    expect(tooLong.statusCode).toBe(413);
    expect(tooLong.json().error).toContain('line');
  });

  it('rejects a bad row with 422 naming its index and field, and writes nothing', async () => {
    const before = await count();
    const bad = productInput(11, { variants: [{ id: 111, price: 'cheap' }] });
    const res = await t.admin('PUT', '/admin/v1/shops/shop/products', [productInput(10), bad]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ index: 1, field: 'variants[0].price' });
    expect(res.json().error).toContain('Row 1');
    expect(await count()).toBe(before);

    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    const cases: [unknown, number, string][] = [
      [[{ ...productInput(12), colour: 'red' }], 0, 'colour'],
      [[{ ...productInput(12), variants: [] }], 0, 'variants'],
      [[{ ...productInput(12), id: 'twelve' }], 0, 'id'],
      [[productInput(12), productInput(13, { handle: 'product-12' })], 1, 'handle'],
      [[productInput(13, { handle: 'product-1' })], 0, 'handle'],
      [[productInput(12, { created_at: 'yesterday' })], 0, 'created_at'],
      // Shaped like timestamps, naming no real instant: refused, not stored as 2 March or the next day.
      [[productInput(12, { created_at: '2026-02-30T10:00:00Z' })], 0, 'created_at'],
      [[productInput(12, { updated_at: '2026-04-01T24:00:00Z' })], 0, 'updated_at'],
      [[productInput(12, { published_at: '2026-04-01T10:00:00+25:00' })], 0, 'published_at'],
      // The platform's bound on tags, as a list or a comma list: each tag a condition may read on every request.
      [[productInput(12, { tags: Array.from({ length: 251 }, (_, i) => `t${i}`) })], 0, 'tags'],
      [[productInput(12, { tags: Array.from({ length: 251 }, (_, i) => `t${i}`).join(', ') })], 0, 'tags'],
      [[productInput(12, { tags: ['x'.repeat(256)] })], 0, 'tags'],
      // A list item holding commas is many tags: 250 items of 42 each were 10,500 tags a product.
      [[productInput(12, { tags: ['a, b'] })], 0, 'tags'],
      [[productInput(12, { tags: `short, ${'x'.repeat(257)}` })], 0, 'tags'],
      // The platform's bounds on names: each is indexed for search, and an image's variants are sent in answers.
      [[productInput(12, { vendor: 'v'.repeat(256) })], 0, 'vendor'],
      [[productInput(12, { product_type: 'word '.repeat(60) })], 0, 'product_type'],
      [[{ ...productInput(12), variants: [{ ...productInput(12).variants[0]!, sku: 's'.repeat(256) }] }], 0, 'sku'],
      [
        [{ ...productInput(12), images: [{ id: 5, src: 'https://i.example/a.png', variant_ids: ids(2049) }] }],
        0,
        'variant_ids',
      ],
    ];
    for (const [body, index, field] of cases) {
      const r = await t.admin('PUT', '/admin/v1/shops/shop/products', body);
      expect(r.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(r.json().index).toBe(index);
      expect(r.json().field).toContain(field);
    }
    const commaList = await t.admin('PUT', '/admin/v1/shops/shop/products', [
      productInput(12, { tags: Array.from({ length: 251 }, (_, i) => `t${i}`).join(',') }),
    ]);
    expect(commaList.json().error).toContain('at most 250 tags');
    expect((await t.admin('PUT', '/admin/v1/shops/shop/products', { not: 'an array' })).statusCode).toBe(422);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/admin/v1/shops/shop/products',
          headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/json' },
          payload: '[{',
        })
      ).statusCode,
    ).toBe(400);
    expect(await count()).toBe(before);
    const most = Array.from({ length: 250 }, (_, i) => `t${i}`);
    for (const tags of [most, most.join(', ')])
      expect((await t.admin('PUT', '/admin/v1/shops/shop/products', [productInput(12, { tags })])).statusCode).toBe(
        200,
      );
    expect((await t.admin('DELETE', '/admin/v1/shops/shop/products/12')).statusCode).toBe(204);
  });

  it('gives a variant id to one product: another product of the shop may take it only in the same import', async () => {
    // Product 1 (imported above) has variants 11 and 12.
    const taking = productInput(14, { variants: [{ id: 11, price: '1.00' }] });
    const refused = await t.admin('PUT', '/admin/v1/shops/shop/products', [productInput(13), taking]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ index: 1, field: 'variants[0].id' });
    expect(refused.json().error).toContain('variant 11 is already a variant of product 1');
    // Product 1 gives variant 11 up in the same import: product 14 has it, and no answer shows it twice.
    const keeping = productInput(1, { variants: [{ id: 12, price: '12.50' }] });
    const moved = await t.admin('PUT', '/admin/v1/shops/shop/products', [keeping, taking]);
    expect(moved.statusCode, moved.body).toBe(200);
    const res = await t.app.inject(`/api/v1/products/static?key=${key}&ids=1,14`);
    const variantIds = res.json().data.map((p: { variants: { id: number }[] }) => p.variants.map((v) => v.id));
    expect(variantIds).toEqual([[12], [11]]);
    // As the catalog was before, for the tests below.
    const back = await t.admin('PUT', '/admin/v1/shops/shop/products', [
      productInput(14, { variants: [{ id: 141, price: '1.00' }] }),
      productInput(1),
    ]);
    expect(back.statusCode, back.body).toBe(200);
    expect((await t.admin('DELETE', '/admin/v1/shops/shop/products/14')).statusCode).toBe(204);
  });

  it('lists products with search and paging, and deletes them', async () => {
    const page = (await t.admin('GET', '/admin/v1/shops/shop/products?limit=1&page=2')).json();
    expect(page).toMatchObject({ page: 2, total: 4 });
    expect(page.data.map((p: { id: number }) => p.id)).toEqual([2]);
    expect(
      (await t.admin('GET', '/admin/v1/shops/shop/products?query=product 3'))
        .json()
        .data.map((p: { id: number }) => p.id),
    ).toEqual([3]);
    expect((await t.admin('GET', '/admin/v1/shops/shop/products?limit=0')).statusCode).toBe(400);
    expect((await t.admin('DELETE', '/admin/v1/shops/shop/products/4')).statusCode).toBe(204);
    expect((await t.admin('DELETE', '/admin/v1/shops/shop/products/4')).statusCode).toBe(404);
    expect((await t.admin('DELETE', '/admin/v1/shops/shop/products/abc')).statusCode).toBe(400);
  });

  it('replaces collection membership and refuses unknown products', async () => {
    const ok = await t.admin('PUT', '/admin/v1/shops/shop/collections', [
      {
        id: 70,
        title: 'Summer',
        handle: 'summer',
        products: [
          { product_id: 2, position: 2 },
          { product_id: 1, position: 1 },
          { product_id: 2, position: 9 },
        ],
      },
    ]);
    expect(ok.json()).toEqual({ upserted: 1 });
    const listed = (await t.admin('GET', '/admin/v1/shops/shop/collections')).json().data;
    expect(listed[0]).toMatchObject({
      id: 70,
      title: 'Summer',
      products: [
        { product_id: 1, position: 1 },
        { product_id: 2, position: 2 },
      ],
    });
    const bad = await t.admin('PUT', '/admin/v1/shops/shop/collections', [
      { id: 71, title: 'X', handle: 'x', products: [{ product_id: 999 }] },
    ]);
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ index: 0, field: 'products[0].product_id' });
  });

  it('lists collections a page at a time, and names a bad paging parameter', async () => {
    // The largest id an import takes: a page ending on it gives a `next` the next page takes.
    const more = [72, 73, Number.MAX_SAFE_INTEGER].map((id) => ({
      id,
      title: `C${id}`,
      handle: `c-${id}`,
      products: [{ product_id: 1 }],
    }));
    await t.admin('PUT', '/admin/v1/shops/shop/collections', more);
    const pages: number[][] = [];
    let after: number | null = 0;
    while (after !== null) {
      const page: { total: number; data: { id: number }[]; next: number | null } = (
        await t.admin('GET', `/admin/v1/shops/shop/collections?limit=2&after=${after}`)
      ).json();
      expect(page.total).toBe(4);
      pages.push(page.data.map((c: { id: number }) => c.id));
      after = page.next;
    }
    expect(pages).toEqual([
      [70, 72],
      [73, Number.MAX_SAFE_INTEGER],
    ]);
    const last = await t.admin('GET', `/admin/v1/shops/shop/collections?after=${Number.MAX_SAFE_INTEGER}`);
    expect(last.json()).toMatchObject({ data: [], next: null });
    for (const [query, name] of [
      ['limit=0', 'limit'],
      ['limit=251', 'limit'],
      ['after=-1', 'after'],
      ['after=9007199254740992', 'after'],
    ]) {
      const bad = await t.admin('GET', `/admin/v1/shops/shop/collections?${query}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toContain(`Parameter ${name}`);
    }
  });

  it('sets inventory and refuses unknown variants', async () => {
    expect(
      (
        await t.admin('PUT', '/admin/v1/shops/shop/inventory', [
          { variant_id: 11, inventory_quantity: 0 },
          { variant_id: 12, inventory_quantity: 0 },
        ])
      ).json(),
    ).toEqual({ updated: 2 });
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/products/static?ids=1&key=${key}` });
    expect(res.json().data).toEqual([]); // both variants now out of stock
    const bad = await t.admin('PUT', '/admin/v1/shops/shop/inventory', [
      { variant_id: 11, inventory_quantity: 3 },
      { variant_id: 424242, inventory_quantity: 1 },
    ]);
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ index: 1, field: 'variant_id' });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/products/static?ids=1&key=${key}` })).json().data,
    ).toEqual([]);
    expect(
      (await t.admin('PUT', '/admin/v1/shops/shop/inventory', [{ variant_id: 11, inventory_quantity: 1.5 }]))
        .statusCode,
    ).toBe(422);
  });

  it('upserts customers, markets and orders with their checks', async () => {
    expect(
      (
        await t.admin('PUT', '/admin/v1/shops/shop/customers', [
          { id: 1, email: 'a@example.com', tags: 'vip, wholesale', first_name: 'ignored' },
        ])
      ).json(),
    ).toEqual({ upserted: 1, erased: 0 });
    expect((await t.admin('PUT', '/admin/v1/shops/shop/customers', [{ email: 'no-id@example.com' }])).statusCode).toBe(
      422,
    );
    const market = {
      id: 1,
      name: 'EU',
      countries: ['de'],
      currency: 'eur',
      fixed_prices: [{ variant_id: 21, price: '3.00' }],
    };
    expect((await t.admin('PUT', '/admin/v1/shops/shop/markets', [market])).json()).toEqual({ upserted: 1 });
    expect((await t.admin('GET', '/admin/v1/shops/shop/markets')).json().data[0]).toMatchObject({
      countries: ['DE'],
      currency: 'EUR',
      active: true,
      product_ids: null,
    });
    // Its products are a set, as its countries are: an id listed twice is the product once.
    const listed = { ...market, id: 2, countries: ['fr', 'FR'], product_ids: [2, 1, 2] };
    expect((await t.admin('PUT', '/admin/v1/shops/shop/markets', [listed])).statusCode).toBe(200);
    expect((await t.admin('GET', '/admin/v1/shops/shop/markets')).json().data[1]).toMatchObject({
      countries: ['FR'],
      product_ids: [2, 1],
    });
    const badMarket = await t.admin('PUT', '/admin/v1/shops/shop/markets', [
      { ...market, fixed_prices: [{ variant_id: 5555, price: '1.00' }] },
    ]);
    expect(badMarket.json()).toMatchObject({ index: 0, field: 'fixed_prices[0].variant_id' });
    // Bounded: every country once, as many products as a collection holds.
    const everywhere = await t.admin('PUT', '/admin/v1/shops/shop/markets', [
      { ...market, countries: Array.from({ length: 251 }, () => 'US') },
    ]);
    expect(everywhere.json()).toMatchObject({ index: 0, field: 'countries' });
    const many = Array.from({ length: 100_001 }, (_, i) => i + 1);
    const tooMany = await t.admin('PUT', '/admin/v1/shops/shop/markets', [{ ...market, product_ids: many }]);
    expect(tooMany.json()).toMatchObject({ index: 0, field: 'product_ids' });
    // One variant at two prices: which was meant is not for the import to pick. Twice alike is once.
    const twoPrices = [
      { variant_id: 21, price: '3.00' },
      { variant_id: 21, price: '4.00' },
    ];
    const conflicting = await t.admin('PUT', '/admin/v1/shops/shop/markets', [{ ...market, fixed_prices: twoPrices }]);
    expect(conflicting.statusCode).toBe(422);
    expect(conflicting.json()).toMatchObject({ index: 0, field: 'fixed_prices[1].variant_id' });
    const alike = [
      { variant_id: 21, price: '3.00' },
      { price: '3.00', variant_id: 21 },
    ];
    expect(
      (await t.admin('PUT', '/admin/v1/shops/shop/markets', [{ ...market, fixed_prices: alike }])).statusCode,
    ).toBe(200);
    expect(
      (await t.admin('PUT', '/admin/v1/shops/shop/markets', [{ ...market, product_ids: [1, 8888] }])).json().field,
    ).toBe('product_ids[1]');
    const order = {
      id: 1,
      created_at: '2026-11-01T10:00:00Z',
      cancelled_at: null,
      customer: { id: 1 },
      line_items: [{ product_id: 1, variant_id: 11, quantity: 2, price: '10.00' }],
      total_price: 'ignored',
    };
    expect((await t.admin('PUT', '/admin/v1/shops/shop/orders', [order])).json()).toEqual({ upserted: 1, erased: 0 });
    expect(
      (
        await t.admin('PUT', '/admin/v1/shops/shop/orders', [
          { ...order, line_items: [{ product_id: 1, quantity: -1 }] },
        ])
      ).json().field,
    ).toBe('line_items[0].quantity');
    // Two lines under one id: a refund of that id would count against both.
    const twoLines = [
      { id: 10, product_id: 1, quantity: 2, price: '10.00' },
      { id: 10, product_id: 1, quantity: 3, price: '10.00' },
    ];
    const repeated = await t.admin('PUT', '/admin/v1/shops/shop/orders', [{ ...order, line_items: twoLines }]);
    expect(repeated.statusCode).toBe(422);
    expect(repeated.json()).toMatchObject({ index: 0, field: 'line_items[1].id' });
    // A refund takes back what its own order's lines ordered, never a line it lacks or more than was ordered.
    const lines = [{ id: 10, product_id: 1, quantity: 2, price: '10.00' }];
    const refunding = (...items: { line_item_id: number; quantity: number }[]) => [
      { ...order, line_items: lines, refunds: items.map((item) => ({ refund_line_items: [item] })) },
    ];
    const refunds = '/admin/v1/shops/shop/orders';
    const unknown = await t.admin('PUT', refunds, refunding({ line_item_id: 11, quantity: 1 }));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({
      index: 0,
      field: 'refunds[0].refund_line_items[0].line_item_id',
      error: expect.stringContaining('no line of this order has the id 11'),
    });
    const over = await t.admin(
      'PUT',
      refunds,
      refunding({ line_item_id: 10, quantity: 1 }, { line_item_id: 10, quantity: 2 }),
    );
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({
      field: 'refunds[1].refund_line_items[0].quantity',
      error: expect.stringContaining('refunds take back 3 of line 10, which ordered 2'),
    });
    const whole = await t.admin(
      'PUT',
      refunds,
      refunding({ line_item_id: 10, quantity: 1 }, { line_item_id: 10, quantity: 1 }),
    );
    expect(whole.statusCode, whole.body).toBe(200);
    expect(await t.services.store.countOrders((await t.services.store.getShopByHandle('shop'))!.id)).toBe(1);
    // Each within its bound, their product past what money holds: a 500 on PostgreSQL, a float on SQLite.
    const huge = [
      { ...order, id: 77, line_items: [{ product_id: 1, quantity: 1_000_000, price: '899999999999.9999' }] },
    ];
    const past = await t.admin('PUT', refunds, huge);
    expect(past.statusCode).toBe(422);
    expect(past.json()).toMatchObject({ index: 0, field: 'line_items[0].quantity' });
    expect(past.json().error).toContain('must be below 900000000000');
    const most = [{ ...order, id: 78, line_items: [{ product_id: 1, quantity: 9, price: '99999999999.9999' }] }];
    expect((await t.admin('PUT', refunds, most)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown shop', async () => {
    expect((await t.admin('PUT', '/admin/v1/shops/nope/products', [productInput(1)])).statusCode).toBe(404);
  });
});
