import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

/** The blend weights taken back to their defaults (a PATCH merges settings; null clears one). */
const BLEND_DEFAULTS = { for_you_similarity: null, for_you_content: null, for_you_popularity: null };

const DAY = 86_400_000;
const S1 = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';
const S3 = '33333333-3333-4333-8333-333333333333';

describe.each(backends())('model lists on $name', (backend) => {
  let t: TestApp;
  let key: string;
  let shopId: number;
  const now = Date.now();
  const order = (id: number, daysAgo: number, customer: number | null, products: number[]) => ({
    id,
    created_at: new Date(now - daysAgo * DAY).toISOString(),
    ...(customer ? { customer: { id: customer } } : {}),
    line_items: products.map((product_id) => ({ product_id, quantity: 1 })),
  });
  const view = (uuid: string, product: number) =>
    t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${key}&subject=user&verb=viewed` +
        `&noun=product&shop_product_handle=product-${product}&uuid=${uuid}`,
    });
  const ids = async (path: string, query: string, status = 200) => {
    const res = await t.app.inject(`/api/v1/products/${path}?key=${key}&${query}`);
    expect(res.statusCode, res.body).toBe(status);
    return status === 200 ? (res.json().data.map((p: { id: number }) => p.id) as number[]) : res.json();
  };

  beforeAll(async () => {
    t = await startApp(backend, { REBOUND_MODEL_INTERVAL_S: '0', REBOUND_MODEL_DEBOUNCE_S: '0' });
    const shop = await t.createShop('learned');
    key = shop.public;
    shopId = shop.id;
    await t.admin(
      'PUT',
      '/admin/v1/shops/learned/products',
      [1, 2, 3, 4, 5, 6, 7, 8].map((id) => productInput(id)),
    );
    // 1 goes with 2 (three baskets) and 3 (one); 5 and 6 go together; 8 is the best seller, then 2.
    await t.admin('PUT', '/admin/v1/shops/learned/orders', [
      order(1, 10, 900, [1, 2]),
      order(2, 9, null, [1, 2]),
      order(3, 8, 901, [1, 2, 3]),
      order(4, 7, 902, [5, 6]),
      order(5, 6, 903, [8]),
      order(6, 5, 904, [8]),
      order(7, 4, 905, [8]),
      order(8, 3, 906, [8, 7]),
      order(9, 2, 907, [2, 8]),
    ]);
    // 1 goes with 2 in three of 2's four baskets and with 3 in 3's only one: lift prefers 3.
    // Sessions that view 4 also view 7; one views 4 and 3.
    for (const [uuid, products] of [
      [S1, [4, 7]],
      [S2, [4, 7]],
      [S3, [4, 3]],
    ] as const)
      for (const p of products) await view(uuid, p);
    await ids('recommended', 'shop_product_ids=1'); // the first request starts the shop's model
    await t.services.models.settled(shopId);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it('recommended ranks by the model, takes variant ids, then fills with best sellers', async () => {
    expect(await ids('recommended', 'shop_product_ids=1&limit=3')).toEqual([2, 3, 8]);
    expect(await ids('recommended', 'shop_variant_ids=51&limit=1')).toEqual([6]); // variant 51 is product 5's
    expect(await ids('recommended', 'shop_product_ids=424242&limit=2')).toEqual([8, 2]);
  });

  it("follows the shop's similarity setting once the model is rebuilt", async () => {
    // lift favours the rarer partner: 3 (bought once, with 1) over 2.
    expect(
      (
        await t.admin('PATCH', '/admin/v1/shops/learned', {
          settings: { recommended_similarity: 'lift', recommended_basis: 'order' },
        })
      ).statusCode,
    ).toBe(200);
    await t.services.models.settled(shopId);
    expect(await ids('recommended', 'shop_product_ids=1&limit=2')).toEqual([3, 2]);
    await t.admin('PATCH', '/admin/v1/shops/learned', {
      settings: { recommended_similarity: null, recommended_basis: null },
    });
    await t.services.models.settled(shopId);
    expect(await ids('recommended', 'shop_product_ids=1&limit=2')).toEqual([2, 3]);
    expect(
      (await t.admin('PATCH', '/admin/v1/shops/learned', { settings: { recommended_similarity: 'cosine' } }))
        .statusCode,
    ).toBe(422);
  });

  it('for_you: what a customer bought first, then their neighbours and what sells; left out when asked', async () => {
    expect(await ids('for_you', 'shop_customer_id=900&limit=4')).toEqual([2, 1, 8, 3]); // 2 sells more than 1
    expect(await ids('for_you', 'shop_customer_id=900&include_purchased=yes&limit=2')).toEqual([2, 1]);
    expect(await ids('for_you', 'shop_customer_id=900&include_purchased=no&limit=2')).toEqual([8, 3]);
    // Viewed 3: its nearer neighbour 2 ahead of the best seller, popularity weighing 0.3 of a neighbour's vote.
    expect(await ids('for_you', `uuid=${S3}&limit=3`)).toEqual([2, 8, 1]);
    expect(await ids('for_you', 'shop_customer_id=424242&limit=1')).toEqual([8]); // nothing known: best sellers
    expect((await ids('for_you', '', 400)).error).toBe(
      'Missing required args. You must pass either shop_customer_id or uuid.',
    );
    expect((await ids('for_you', 'shop_customer_id=900&include_purchased=maybe', 400)).error).toContain(
      'include_purchased',
    );
  });

  it("follows the shop's for_you blend weights, and refuses weights out of range", async () => {
    const patch = (settings: Record<string, number | null>) =>
      t.admin('PATCH', '/admin/v1/shops/learned', { settings }).then((r) => r.statusCode);
    // Popularity weighing more than the neighbour's vote: the best seller 8 leads what the visitor viewed.
    expect(await patch({ for_you_similarity: 0.3, for_you_content: 0, for_you_popularity: 1 })).toBe(200);
    expect(await ids('for_you', `uuid=${S3}&limit=3`)).toEqual([8, 2, 1]);
    expect(await patch(BLEND_DEFAULTS)).toBe(200);
    expect(await ids('for_you', `uuid=${S3}&limit=3`)).toEqual([2, 8, 1]);
    expect(await patch({ for_you_popularity: 11 })).toBe(422);
  });

  it("reads the content neighbours of the customer's purchases when the blend weighs them", async () => {
    const patch = (settings: Record<string, number | null>) =>
      t.admin('PATCH', '/admin/v1/shops/learned', { settings }).then((r) => r.statusCode);
    // Every fixture product is alike (type, vendor, tags, price): after 900's purchases (1 and 2, equal), the
    // content neighbours the model knows (4 was never bought), by id.
    expect(await patch({ for_you_similarity: 0, for_you_content: 1, for_you_popularity: 0 })).toBe(200);
    expect(await ids('for_you', 'shop_customer_id=900&limit=4&bust_cache=yes')).toEqual([1, 2, 3, 5]);
    // Without them, only the purchases, then the best sellers' fill.
    expect(await patch({ for_you_similarity: 0, for_you_content: 0, for_you_popularity: 0 })).toBe(200);
    expect(await ids('for_you', 'shop_customer_id=900&limit=3&bust_cache=yes')).toEqual([1, 2, 8]);
    expect(await patch(BLEND_DEFAULTS)).toBe(200);
  });

  it('viewed_together: products viewed in the same sessions', async () => {
    expect(await ids('viewed_together', 'shop_product_ids=4&limit=2')).toEqual([7, 3]);
    expect((await ids('viewed_together', '', 400)).error).toBe(
      'Missing required args. You must pass either shop_product_ids or shop_variant_ids.',
    );
  });

  it('viewed and recently_viewed answer as before and serve as ruleset outputs, never from the cache', async () => {
    expect(await ids('viewed', `uuid=${S1}`)).toEqual([7, 4]);
    expect(await ids('recently_viewed', `uuid=${S1}`)).toEqual([7, 4]);
    await view(S1, 4);
    expect(await ids('viewed', `uuid=${S1}`)).toEqual([4, 7]);
    const created = await t.admin('POST', '/admin/v1/shops/learned/rulesets', {
      name: 'personal',
      rules: [
        {
          logic: [],
          output: [
            { type: 'endpoint', endpoint: '/products/recently_viewed' },
            { type: 'endpoint', endpoint: '/products/for_you?limit=1' },
          ],
        },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await t.app.inject(`/api/v1/custom/id/${created.json().ruleset.id}?key=${key}&uuid=${S1}&limit=10`);
    expect(res.json().metadata.errors).toEqual([]);
    expect(
      res
        .json()
        .data.map((p: { id: number }) => p.id)
        .slice(0, 2),
    ).toEqual([4, 7]);
  });
});
