import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerSignature } from '../../../src/domain/keys.js';
import { backends } from '../../helpers/backends.js';
import { idsOf, json, ORDER_ID, startWorld, type World } from './world.js';

/**
 * Storefront code written for the hosted service, replayed against Rebound as that code sends it
 * (docs/api.md, "Aliases"): each case names the public source it comes from and reads the answer
 * the way that code reads it. Only the base URL changes.
 */
describe.each(backends())('real storefront clients on $name', (backend) => {
  let w: World;
  const get = (path: string, query: string, headers: Record<string, string> = {}) =>
    fetch(`${w.base}${path}?${query}`, { headers });
  const custom = (query: string) => get(`/api/v1/custom/id/${w.upsellId}`, `key=${w.publicKey}&${query}`);
  const matched = (body: { metadata: { matched_rules: { name: string }[] } }) =>
    body.metadata.matched_rules.map((r) => r.name);

  beforeAll(async () => {
    w = await startWorld(backend);
  });
  afterAll(() => w.close().then(() => backend.cleanup()));

  describe('a Hydrogen storefront (webprismdevin/freedom-fatigues-hydrogen-storefront)', () => {
    // app/routes/rebuy.$resource.ts: a loader proxies /products/{resource} and returns `data.data`.
    it('lists top sellers with metafields, limit 10', async () => {
      const res = await get('/api/v1/products/top_sellers', `key=${w.publicKey}&limit=10&metafields=yes`);
      expect(res.status).toBe(200);
      const data = (await json(res)).data as { id: number; metafields: unknown[] }[];
      expect(data.length).toBeGreaterThan(0);
      expect(data[0]!.metafields.length).toBeGreaterThan(0);
    });

    // The same loader in a later version, with the cart's product ids (`lines`) as shopify_product_ids.
    it('leaves the named products out of recommended', async () => {
      const res = await get(
        '/api/v1/products/recommended',
        `key=${w.publicKey}&limit=6&metafields=yes&filter_oos=yes&shopify_product_ids=9,3`,
      );
      expect(res.status).toBe(200);
      const ids = idsOf((await json(res)).data);
      expect(ids).not.toContain(9);
      expect(ids).not.toContain(3);
    });

    // app/routes/rebuy.recommended.ts: the custom endpoint with the cart's products; reads each
    // product's `avg_rating` metafield and folds variant prices.
    it('answers the ruleset for shopify_product_ids, metafields and variants as the loader reads them', async () => {
      const res = await custom('limit=6&metafields=yes&filter_oos=yes&shopify_product_ids=1');
      expect(res.status).toBe(200);
      const data = (await json(res)).data as {
        id: number;
        metafields: { key: string; value: string }[];
        variants: { price: string }[];
      }[];
      expect(idsOf(data)).toEqual([8, 9]);
      const ratings = data.map((p) => p.metafields.find((m) => m.key === 'avg_rating')?.value ?? 0);
      expect(ratings).toEqual(['4.5', '4.5']);
      expect(Math.max(...data[0]!.variants.map((v) => Number(v.price)))).toBe(12.5);
    });

    // app/components/Cart.tsx builds `lines` from the cart: an empty cart sends an empty list.
    it('reads an empty product list as none', async () => {
      const res = await custom('limit=6&metafields=yes&filter_oos=yes&shopify_product_ids=');
      expect(res.status).toBe(200);
      expect((await json(res)).data).toEqual([]);
    });

    // Cart.tsx strips the Storefront API's global ids (fromGID); code that does not sends them as they are.
    it('reads global ids as their number, and refuses one of another kind', async () => {
      const gid = await custom('limit=6&shopify_product_ids=gid://shopify/Product/1');
      expect(gid.status).toBe(200);
      expect(idsOf((await json(gid)).data)).toEqual([8, 9]);
      const variant = await custom(`shopify_variant_ids=${encodeURIComponent('gid://shopify/ProductVariant/11')}`);
      expect(idsOf((await json(variant)).data)).toEqual([8, 9]);
      const wrong = await custom('shopify_product_ids=gid://shopify/ProductVariant/11');
      expect(wrong.status).toBe(400);
      expect((await json(wrong)).error).toContain('shopify_product_ids');
    });

    // app/hooks/useRebuyEvent.tsx: the view event as a GET with a JSON content type, then `response.json()`.
    it('takes the view event as a GET, and the view is read back', async () => {
      const uuid = '6f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b';
      const params = new URLSearchParams({
        key: w.publicKey,
        verb: 'viewed',
        noun: 'product',
        subject: 'user',
        shopify_product_handle: 'product-2',
        uuid,
      });
      const res = await fetch(`${w.base}/api/v1/analytics/event?${params}`, {
        method: 'GET',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ data: 'Received' });
      const viewed = await get('/api/v1/products/viewed', `key=${w.publicKey}&uuid=${uuid}`);
      expect(idsOf((await json(viewed)).data)).toEqual([2]);
    });
  });

  describe('a theme script (pradeepn123/sns-health, js/components/get-data.js)', () => {
    // Builds the URL with searchParams: limit 10, filter_oos, context=default, the key, metafields, then its own ids.
    it('answers with context and the platform names of the ids', async () => {
      const res = await custom('limit=10&filter_oos=yes&context=default&metafields=yes&shopify_product_ids=1');
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(idsOf(body.data)).toEqual([8, 9]);
      expect(matched(body)).toEqual(['tent upsell']);
      expect(idsOf(body.metadata.input_products)).toEqual([1]);
    });

    it('reads shopify_variant_ids and shopify_customer_id', async () => {
      const body = await json(
        await custom('limit=10&filter_oos=yes&context=default&shopify_variant_ids=12&shopify_customer_id=4242'),
      );
      expect(idsOf(body.metadata.input_products)).toEqual([1]);
      expect(idsOf(body.data)).toEqual([8, 9]);
    });
  });

  describe('a theme template (madebymak/knowledge-resource, Shopify/shopify-snippets.md)', () => {
    // "Create Array": ids are appended in a Liquid loop, each followed by a comma, so the list ends with one.
    it('reads the empty entries a template loop leaves as nothing, and refuses a real bad one', async () => {
      const trailing = await json(await custom('shopify_variant_ids=12,'));
      expect(idsOf(trailing.metadata.input_products)).toEqual([1]);
      expect(idsOf(trailing.data)).toEqual([8, 9]);
      const doubled = await json(await custom('shopify_product_ids=1,,'));
      expect(idsOf(doubled.metadata.input_products)).toEqual([1]);
      const bad = await custom('shopify_product_ids=1,,x');
      expect(bad.status).toBe(400);
      expect((await json(bad)).parameter).toBe('shop_product_ids');
    });
  });

  describe('an SDK (roydensynderen/rebuy-shogun-npm, README.md)', () => {
    // useRebuyData(dataSourceUrl) fetches a data source URL and renders `rebuyData.data.map(each => each.title)`.
    it('serves a data source URL whose titles the hook renders', async () => {
      const body = await json(await custom('shopify_product_ids=1'));
      expect(body.data.map((each: { title: string }) => each.title)).toEqual(['Product 8', 'Product 9']);
    });
  });

  describe('the platform widget (noonereallyeverdies/care-shopify, design_hub/omiwell_code/global)', () => {
    // global_8.md, getWidgetProducts: key, limit, url and every id list, each possibly empty.
    it('reads empty id lists as absent', async () => {
      const url = encodeURIComponent('https://shop.example/products/tent');
      const res = await custom(
        `limit=4&url=${url}&shopify_product_ids=1&shopify_variant_ids=&shopify_collection_ids=&shopify_order_ids=`,
      );
      expect(res.status).toBe(200);
      expect(idsOf((await json(res)).data)).toEqual([8, 9]);
    });

    // global_9.md: on the thank-you page the order's token, total
    // (in cents) and counts are sent with shopify_order_ids.
    it('takes the products of shopify_order_ids as the input products', async () => {
      const res = await custom(
        `limit=4&shopify_product_ids=&shopify_order_ids=${ORDER_ID}` +
          '&cart_token=abc&cart_count=2&cart_line_count=2&cart_item_count=3',
      );
      const body = await json(res);
      expect(idsOf(body.metadata.input_products)).toEqual([3, 4]);
      expect(matched(body)).toEqual(['thank-you page']);
      expect(idsOf(body.data)).toEqual([5]);
    });

    // global_14.md, formatCartConfig: the cart as `cart[...]` fields beside cart_subtotal, both in cents.
    const bracketed = (cents: number, items: [number, number][]) =>
      [
        `cart_token=tok&cart_subtotal=${cents}&cart_count=${items.length}` +
          `&cart_line_count=${items.length}&cart_item_count=${items.length}`,
        `cart[token]=tok&cart[subtotal]=${cents}&cart[line_count]=${items.length}&cart[item_count]=${items.length}`,
        ...items.map(
          ([p, v], i) =>
            `cart[items][${i}][product_id]=${p}&cart[items][${i}][variant_id]=${v}&cart[items][${i}][quantity]=1`,
        ),
        `cart[attributes]=${encodeURIComponent('{}')}&cart[notes]=`,
      ].join('&');

    it('matches "cart subtotal over 50" for a $59.00 cart and not for a $20.00 one, bracketed', async () => {
      const at59 = await json(await custom(bracketed(5900, [[2, 21]])));
      expect(matched(at59)).toContain('cart subtotal over 50');
      expect(idsOf(at59.data)).toContain(7);
      const at20 = await json(await custom(bracketed(2000, [[2, 21]])));
      expect(matched(at20)).not.toContain('cart subtotal over 50');
      expect(idsOf(at20.data)).not.toContain(7);
    });

    it(
      'matches the same rule for the plain form: a decimal amount, ' + 'or cents in a shop set to minor units',
      async () => {
        expect(matched(await json(await custom('cart_subtotal=59.00')))).toContain('cart subtotal over 50');
        expect(matched(await json(await custom('cart_subtotal=20.00')))).not.toContain('cart subtotal over 50');
        await w.t.admin('PATCH', '/admin/v1/shops/storefront', { settings: { cart_subtotal_unit: 'minor' } });
        try {
          expect(matched(await json(await custom('cart_subtotal=5900&bust_cache=yes')))).toContain(
            'cart subtotal over 50',
          );
          expect(matched(await json(await custom('cart_subtotal=2000&bust_cache=yes')))).not.toContain(
            'cart subtotal over 50',
          );
        } finally {
          await w.t.admin('PATCH', '/admin/v1/shops/storefront', { settings: { cart_subtotal_unit: 'major' } });
        }
      },
    );

    it("takes the cart's items as the input products when none are named", async () => {
      const body = await json(await custom(bracketed(1000, [[1, 11]])));
      expect(idsOf(body.metadata.input_products)).toEqual([1]);
      expect(matched(body)).toEqual(['tent upsell']);
    });

    it('ignores other bracketed names', async () => {
      const res = await custom('shopify_product_ids=1&a[b]=1&utm[source]=mail&properties[_x]=y');
      expect(res.status).toBe(200);
    });

    // qs.stringify(cart, { arrayFormat: 'brackets' }) writes lines without their numbers.
    it("takes the cart's unnumbered lines as the input products", async () => {
      const body = await json(await custom('cart[items][][product_id]=1&cart[items][][product_id]=2'));
      expect(idsOf(body.metadata.input_products)).toEqual([1, 2]);
    });

    // A line's id that cannot be read was dropped: the answer then had no input products and said nothing.
    it("refuses a cart line's id it cannot read, naming it as sent", async () => {
      for (const [query, parameter] of [
        ['cart[items][0][product_id]=1&cart[items][0][product_id]=2', 'cart[items][0][product_id]'],
        ['cart[items][10000][product_id]=1', 'cart[items][10000][product_id]'],
        ['cart[items][0][variant_id][]=11', 'cart[items][0][variant_id][]'],
      ]) {
        const res = await custom(query!);
        expect(res.status, query).toBe(400);
        expect(((await res.json()) as { parameter: string }).parameter).toBe(parameter);
      }
      for (const [cart, parameter] of [
        [{ items: [{ product_id: [1] }] }, 'cart.items[0].product_id'],
        [{ items: 'abc' }, 'cart.items'],
        [{ items: [{ product_id: 1 }, 7] }, 'cart.items[1]'],
      ] as const) {
        const res = await fetch(`${w.base}/api/v1/custom/id/${w.upsellId}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ key: w.publicKey, cart }),
        });
        expect(res.status, parameter).toBe(400);
        expect(((await res.json()) as { parameter: string }).parameter).toBe(parameter);
      }
      // The line's other fields are the widget's own, and an empty id is no id.
      expect(
        (await custom('cart[items][0][product_id]=1&cart[items][0][title]=x&cart[items][1][product_id]=')).status,
      ).toBe(200);
    });

    // Long calls are re-sent as a POST with a JSON body holding the key and the cart object.
    it('answers the POST with a JSON body like the GET', async () => {
      const res = await fetch(`${w.base}/api/v1/custom/id/${w.upsellId}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          key: w.publicKey,
          limit: 4,
          shopify_product_ids: '',
          cart: { token: 't', subtotal: 5900, items: [{ product_id: 1, variant_id: 11 }] },
        }),
      });
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(matched(body)).toEqual(['tent upsell', 'cart subtotal over 50']);
      expect(idsOf(body.data)).toEqual([8, 9, 7]);
    });

    it('answers a form POST from the same cache entry as the GET', async () => {
      const query = bracketed(6100, [[2, 21]]);
      const first = await custom(query);
      expect(first.status).toBe(200);
      const posted = await fetch(`${w.base}/api/v1/custom/id/${w.upsellId}?key=${w.publicKey}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: query,
      });
      expect(posted.status).toBe(200);
      expect(posted.headers.get('x-cache')).toBe('hit');
      expect(await posted.text()).toBe(await first.text());
    });

    // global_4.md, BatchAnalyticsEventBus: batches of 10 POSTed to
    // /api/v2/analytics/event/bulk with the key in X-Rebuy-User-Token.
    it('stores a batch of events, durable before the answer', async () => {
      const uuid = '0a0b0c0d-1111-4a4a-8888-123456789abc';
      const events = [
        {
          subject: 'user',
          verb: 'viewed',
          noun: 'product',
          uuid,
          shopify_product_id: 6,
          event_time: Date.now() - 2000,
        },
        {
          subject: 'user',
          verb: 'viewed',
          noun: 'product',
          uuid,
          defined_noun_id: 'product-4',
          event_time: Date.now() - 1000,
        },
        {
          subject: 'user',
          verb: 'added-from',
          noun: 'widget',
          uuid,
          shopify_product_id: 8,
          shopify_variant_id: 81,
          widget_id: '55',
        },
        { subject: 'user', verb: 'clicked-to-pdp-from', noun: 'widget', uuid, shopify_product_id: 9, widget_id: '55' },
        ...Array.from({ length: 6 }, () => ({
          subject: 'user',
          verb: 'viewed',
          noun: 'widget',
          uuid,
          widget_id: '55',
          meta: { page: 'cart' },
        })),
      ];
      const res = await fetch(`${w.base}/api/v2/analytics/event/bulk`, {
        method: 'POST',
        headers: { 'X-Rebuy-User-Token': w.publicKey, 'Content-Type': 'application/json' },
        body: JSON.stringify(events),
      });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ data: 'Received', accepted: 10 });
      const viewed = await get('/api/v1/products/viewed', `key=${w.publicKey}&uuid=${uuid}`);
      expect(idsOf((await json(viewed)).data)).toEqual([4, 6]);
      // The viewed products are the inputs of viewed-related: never answered back.
      const related = await get('/api/v1/products/viewed-related', `key=${w.publicKey}&uuid=${uuid}`);
      expect(related.status).toBe(200);
      const relatedIds = idsOf((await json(related)).data);
      expect(relatedIds.length).toBeGreaterThan(0);
      expect(relatedIds).not.toContain(4);
      expect(relatedIds).not.toContain(6);
    });

    it('asks a shop that requires customer signatures for them in a batch too', async () => {
      const secret = (await w.t.admin('GET', '/admin/v1/shops/storefront/signing-secret')).json()
        .signing_secret as string;
      const send = (event: object) =>
        fetch(`${w.base}/api/v2/analytics/event/bulk?key=${w.publicKey}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify([{ subject: 'user', verb: 'viewed', noun: 'product', shopify_product_id: 1, ...event }]),
        });
      await w.t.admin('PATCH', '/admin/v1/shops/storefront', { settings: { require_customer_signature: true } });
      try {
        expect((await send({ shopify_customer_id: 4243 })).status).toBe(403);
        expect((await send({ shopify_customer_id: 4243, customer_sig: customerSignature(secret, 4243) })).status).toBe(
          200,
        );
      } finally {
        await w.t.admin('PATCH', '/admin/v1/shops/storefront', { settings: { require_customer_signature: false } });
      }
    });

    it('refuses a batch of more than 10 events, or one that is not an array', async () => {
      const send = (body: unknown) =>
        fetch(`${w.base}/api/v2/analytics/event/bulk`, {
          method: 'POST',
          headers: { 'X-Rebuy-User-Token': w.publicKey, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      const event = {
        subject: 'user',
        verb: 'viewed',
        noun: 'product',
        uuid: '0a0b0c0d-1111-4a4a-8888-123456789abc',
        shopify_product_id: 1,
      };
      const code = async (body: unknown) => {
        const res = await send(body);
        return [res.status, ((await res.json()) as { code: string; parameter?: string }).code];
      };
      expect(await code(Array.from({ length: 11 }, () => event))).toEqual([400, 'invalid_body']);
      expect(await code({ events: [event] })).toEqual([400, 'invalid_body']);
      // What a single event lacks is missing, named at its place, as the one-event intakes name it.
      const { uuid: _uuid, ...anonymous } = event;
      const res = await send([event, anonymous]);
      expect(await res.json()).toMatchObject({ code: 'missing_parameter', parameter: 'events[1].uuid' });
      const { shopify_product_id: _id, ...nothingViewed } = event;
      expect(await (await send([nothingViewed])).json()).toMatchObject({
        code: 'missing_parameter',
        parameter: 'events[0].shopify_product_id',
      });
    });
  });

  describe('an app builder (a Flutter app found in the code corpus; the index does not name its repository)', () => {
    // Its top sellers screen sends format=prettyy: any other format is ignored, not a 400.
    it('serves a misspelt format', async () => {
      const res = await get('/api/v1/products/top_sellers', `key=${w.publicKey}&format=prettyy`);
      expect(res.status).toBe(200);
      expect((await json(res)).data.length).toBeGreaterThan(0);
    });

    // Its quick view reads a customer's viewed products, pretty-printed.
    it('reads viewed products by shopify_customer_id', async () => {
      const res = await get('/api/v1/products/viewed', `shopify_customer_id=4242&key=${w.publicKey}&format=pretty`);
      expect(res.status).toBe(200);
      expect((await json(res)).data).toEqual([]);
    });
  });

  describe('what every storefront relies on', () => {
    it('shares one cache entry between an alias and its seed name, and keeps cache_key out of it', async () => {
      const seed = await custom('shop_product_ids=1&limit=3');
      expect(seed.headers.get('x-cache')).toBe('miss');
      const alias = await custom('shopify_product_ids=1&limit=3&cache_key=1762912273&widget_id=55&theme_id=9&query=x');
      expect(alias.headers.get('x-cache')).toBe('hit');
    });

    it('names both spellings when they disagree', async () => {
      const res = await custom('shop_product_ids=1&shopify_product_ids=2');
      expect(res.status).toBe(400);
      const { error } = await json(res);
      expect(error).toContain('shop_product_ids');
      expect(error).toContain('shopify_product_ids');
      expect((await custom('shop_product_ids=1&shopify_product_ids=1')).status).toBe(200);
    });

    it('keeps the input products with filter_inputs=no', async () => {
      expect(idsOf((await json(await custom('shopify_product_ids=1,8'))).data)).toEqual([9]);
      expect(idsOf((await json(await custom('shopify_product_ids=1,8&filter_inputs=no'))).data)).toEqual([8, 9]);
    });

    // A theme section sends the bare flag `&pretty&` (a fetch found in the code corpus without a repository name).
    it('pretty-prints for a bare pretty flag', async () => {
      const res = await custom('pretty&shopify_product_ids=1&limit=100');
      expect(await res.text()).toMatch(/^\{\n {2}"data"/);
    });
  });
});
