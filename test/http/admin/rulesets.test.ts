import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITIONS } from '../../../src/domain/rules/catalog.js';
import { OUTPUTS } from '../../../src/domain/rules/outputs.js';
import { backends } from '../../helpers/backends.js';
import { ADMIN_TOKEN, startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const ruleset = {
  name: 'Gift with a big cart',
  rules: [
    {
      name: 'big cart',
      logic: [
        {
          rules: [
            { type: 'cart_subtotal', operator: 'greater_than', value: '50' },
            { type: 'customer', operator: 'is_logged_in' },
          ],
        },
      ],
      output: [{ type: 'product', products: [{ product_id: 2 }] }],
      exit_if_matched: true,
    },
    { name: 'rest', logic: [], output: [{ type: 'product', products: [{ product_id: 3, variant_ids: [31] }] }] },
  ],
};

describe.each(backends())('admin rulesets on $name', (backend) => {
  let t: TestApp;
  let own: { private: string; public: string };
  beforeAll(async () => {
    t = await startApp(backend);
    own = await t.createShop('rules');
    await t.createShop('elsewhere');
    await t.admin('PUT', '/admin/v1/shops/rules/products', [productInput(1), productInput(2), productInput(3)]);
    await t.admin('PUT', '/admin/v1/shops/rules/collections', [
      { id: 9, title: 'C', handle: 'c', products: [{ product_id: 1 }] },
    ]);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it('creates, reads, lists, replaces and deletes rulesets with per-shop integer ids', async () => {
    const created = await t.admin('POST', '/admin/v1/shops/rules/rulesets', ruleset);
    expect(created.statusCode).toBe(201);
    const stored = created.json().ruleset;
    expect(stored).toMatchObject({
      id: 1,
      name: 'Gift with a big cart',
      enabled: true,
      filter_oos: true,
      filter_input_products: true,
      version: 1,
    });
    expect(stored.rules[1]).toEqual({
      name: 'rest',
      enabled: true,
      logic: [],
      output: [{ type: 'product', products: [{ product_id: 3, variant_ids: [31] }] }],
      exit_if_matched: false,
    });
    expect(
      (await t.admin('POST', '/admin/v1/shops/elsewhere/rulesets', { name: 'x', rules: [] })).json().ruleset.id,
    ).toBe(1);
    expect((await t.admin('GET', '/admin/v1/shops/rules/rulesets/1')).json().ruleset).toEqual(stored);
    const replaced = await t.admin('PUT', '/admin/v1/shops/rules/rulesets/1', {
      ...stored,
      name: 'Renamed',
      enabled: false,
    });
    expect(replaced.json().ruleset).toMatchObject({ id: 1, name: 'Renamed', enabled: false, version: 2 });
    expect(
      (await t.admin('GET', '/admin/v1/shops/rules/rulesets')).json().data.map((r: { name: string }) => r.name),
    ).toEqual(['Renamed']);
    expect((await t.admin('DELETE', '/admin/v1/shops/rules/rulesets/1')).statusCode).toBe(204);
    expect((await t.admin('GET', '/admin/v1/shops/rules/rulesets/1')).statusCode).toBe(404);
    expect((await t.admin('DELETE', '/admin/v1/shops/rules/rulesets/1')).statusCode).toBe(404);
    expect((await t.admin('PUT', '/admin/v1/shops/rules/rulesets/1', ruleset)).statusCode).toBe(404);
    expect((await t.admin('GET', '/admin/v1/shops/rules/rulesets/x')).statusCode).toBe(400);
  });

  it('refuses invalid documents with 422 listing each problem with its JSON path', async () => {
    const bad = {
      name: 'Broken',
      rules: [
        {
          logic: [
            {
              rules: [
                { type: 'weather', operator: 'is' },
                { type: 'cart_subtotal', operator: 'contains_any', value: '5' },
              ],
            },
          ],
          output: [{ type: 'product', products: [{ product_id: 404 }] }],
        },
        {
          logic: [{ rules: [{ type: 'cart_item_count', operator: 'between', value: '9,1' }] }],
          output: [{ type: 'collection', collection_id: 77 }, { type: 'teleport' }],
        },
      ],
    };
    const res = await t.admin('POST', '/admin/v1/shops/rules/rulesets', bad);
    expect(res.statusCode).toBe(422);
    expect(res.json().problems.map((p: { path: string }) => p.path)).toEqual([
      'rules[0].logic[0].rules[0].type',
      'rules[0].logic[0].rules[1].operator',
      'rules[0].output[0].products[0].product_id',
      'rules[1].logic[0].rules[0].value',
      'rules[1].output[0].collection_id',
      'rules[1].output[1].type',
    ]);
    expect(res.json().error).toContain('(and 5 more problems)');
    const shape = await t.admin('POST', '/admin/v1/shops/rules/rulesets', {
      name: 'x',
      rules: [{ logic: [], output: [], colour: 'red' }],
    });
    expect(shape.statusCode).toBe(422);
    expect(shape.json().field).toBe('rules[0].colour');
    expect((await t.admin('POST', '/admin/v1/shops/rules/rulesets', { rules: [] })).json().field).toBe('name');
    expect(
      (
        await t.admin('POST', '/admin/v1/shops/rules/rulesets', {
          name: 'v',
          rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 2, variant_ids: [31] }] }] }],
        })
      ).json().field,
    ).toBe('rules[0].output[0].products[0].variant_ids[0]');
    expect((await t.admin('GET', '/admin/v1/shops/rules/rulesets')).json().data).toEqual([]);
  });

  it('refuses an endpoint naming a parameter twice; one stored before the check keeps serving', async () => {
    const twice = {
      name: 'twice',
      rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/static?ids=1&limit=1&ids=2' }] }],
    };
    const refused = await t.admin('POST', '/admin/v1/shops/rules/rulesets', twice);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().field).toBe('rules[0].output[0].endpoint');
    expect(refused.json().error).toContain('ids more than once');
    // A market without the scope would have refused every request of the ruleset: refused when saved.
    const market = await t.admin('POST', '/admin/v1/shops/rules/rulesets', {
      name: 'market',
      rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/static?ids=1&country_code=DE' }] }],
    });
    expect(market.statusCode).toBe(422);
    expect(market.json().error).toContain('read_markets');
    // A misspelt parameter would be a silent default (limt=3 serves 5): refused; a platform's name is read.
    const endpointOnly = (endpoint: string) => ({
      name: 'params',
      rules: [{ logic: [], output: [{ type: 'endpoint', endpoint }] }],
    });
    const misspelt = await t.admin(
      'POST',
      '/admin/v1/shops/rules/rulesets',
      endpointOnly('/products/top_sellers?limt=3'),
    );
    expect(misspelt.statusCode).toBe(422);
    expect(misspelt.json()).toMatchObject({ field: 'rules[0].output[0].endpoint' });
    expect(misspelt.json().error).toContain('limt');
    const aliased = await t.admin(
      'POST',
      '/admin/v1/shops/rules/rulesets',
      endpointOnly('/products/top_sellers?shopify_product_ids=1'),
    );
    expect(aliased.statusCode, aliased.body).toBe(201);
    await t.admin('DELETE', `/admin/v1/shops/rules/rulesets/${aliased.json().ruleset.id}`);
    // The endpoint's own message ends its sentence; the summary does not add a second full stop.
    const limit = await t.admin('POST', '/admin/v1/shops/rules/rulesets', {
      name: 'limit',
      rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/top_sellers?limit=0' }] }],
    });
    expect(limit.statusCode).toBe(422);
    expect(limit.json().error).toMatch(/limit.*"0"\.$/);
    // Saved by an earlier version: the last value wins, as it did then, rather than the ruleset going dark.
    const once = JSON.parse(JSON.stringify(twice).replace('&ids=2', ''));
    const { ruleset: saved } = (await t.admin('POST', '/admin/v1/shops/rules/rulesets', once)).json();
    const shopId = (await t.services.store.getShopByHandle('rules'))!.id;
    const { id, version: _v, created_at: _c, updated_at: _u, ...document } = saved;
    document.rules[0].output[0].endpoint = twice.rules[0]!.output[0]!.endpoint;
    await t.services.store.updateRuleset(shopId, id, document);
    await t.services.catalogIndex.apply(shopId, { rulesets: true });
    const res = await t.app.inject(`/api/v1/custom/id/${id}?key=${own.public}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((p: { id: number }) => p.id)).toEqual([2]);
    expect((await t.admin('DELETE', `/admin/v1/shops/rules/rulesets/${id}`)).statusCode).toBe(204);
  });

  it('keeps read_markets while an enabled ruleset names a market in a list output', async () => {
    const scopes = (list: string[]) => t.admin('PATCH', '/admin/v1/shops/rules', { scopes: list });
    expect((await scopes(['read_markets'])).statusCode).toBe(200);
    const document = {
      name: 'German prices',
      rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/top_sellers?country_code=DE' }] }],
    };
    const created = await t.admin('POST', '/admin/v1/shops/rules/rulesets', document);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().ruleset.id;
    // Without the scope, every request of the ruleset would be a 403.
    const refused = await scopes([]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'conflict', error: expect.stringContaining(`ruleset ${id} `) });
    expect((await t.admin('GET', '/admin/v1/shops/rules')).json().shop.scopes).toEqual(['read_markets']);
    expect((await t.app.inject(`/api/v1/custom/id/${id}?key=${own.public}`)).statusCode).toBe(200);
    // Disabled, it serves nothing, and enabling it again is refused without the scope.
    await t.admin('PUT', `/admin/v1/shops/rules/rulesets/${id}`, { ...document, enabled: false });
    expect((await scopes([])).statusCode).toBe(200);
    expect((await t.admin('PUT', `/admin/v1/shops/rules/rulesets/${id}`, document)).statusCode).toBe(422);
    expect((await t.admin('DELETE', `/admin/v1/shops/rules/rulesets/${id}`)).statusCode).toBe(204);
  });

  it('refuses a country condition without read_markets, and keeps the scope while one is enabled', async () => {
    const scopes = (list: string[]) => t.admin('PATCH', '/admin/v1/shops/rules', { scopes: list });
    const document = {
      name: 'EU shoppers',
      rules: [
        {
          logic: [{ rules: [{ type: 'country', operator: 'contains_any', value: 'DE,AT' }] }],
          output: [{ type: 'endpoint', endpoint: '/products/top_sellers' }],
        },
      ],
    };
    expect((await scopes([])).statusCode).toBe(200);
    // It could match only requests with country_code, each a 403 without the scope.
    expect((await t.app.inject(`/api/v1/products/top_sellers?key=${own.public}&country_code=DE`)).statusCode).toBe(403);
    const refused = await t.admin('POST', '/admin/v1/shops/rules/rulesets', document);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ field: 'rules[0].logic[0].rules[0].type' });
    expect(refused.json().error).toContain('read_markets');
    expect((await scopes(['read_markets'])).statusCode).toBe(200);
    const created = await t.admin('POST', '/admin/v1/shops/rules/rulesets', document);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().ruleset.id;
    expect((await t.app.inject(`/api/v1/custom/id/${id}?key=${own.public}&country_code=DE`)).statusCode).toBe(200);
    expect((await scopes([])).json()).toMatchObject({ code: 'conflict', error: expect.stringContaining('country') });
    expect((await t.admin('DELETE', `/admin/v1/shops/rules/rulesets/${id}`)).statusCode).toBe(204);
  });

  it('saves again a ruleset whose product was deleted since, refusing only new unknown ones', async () => {
    await t.admin('PUT', '/admin/v1/shops/rules/products', [productInput(7)]);
    const document = {
      name: 'Soon gone',
      rules: [
        {
          logic: [
            { rules: [{ type: 'product', operator: 'contains_any', products: [{ product_id: 7 }] }] },
            { rules: [{ type: 'variant', operator: 'contains_any', value: '71' }] },
          ],
          output: [{ type: 'product', products: [{ product_id: 7, variant_ids: [71] }] }],
        },
      ],
    };
    const created = await t.admin('POST', '/admin/v1/shops/rules/rulesets', document);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().ruleset.id;
    expect((await t.admin('DELETE', '/admin/v1/shops/rules/products/7')).statusCode).toBe(204);
    // Switching it off or renaming it needs no edit of its rules.
    const off = await t.admin('PUT', `/admin/v1/shops/rules/rulesets/${id}`, { ...document, enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().ruleset).toMatchObject({ enabled: false, version: 2 });
    // A reference the update adds is checked as on create; a new ruleset naming the lost ones too.
    const added = structuredClone(document);
    added.rules[0]!.output[0]!.products!.push({ product_id: 8, variant_ids: [] });
    const refused = await t.admin('PUT', `/admin/v1/shops/rules/rulesets/${id}`, added);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().field).toBe('rules[0].output[0].products[1].product_id');
    expect((await t.admin('POST', '/admin/v1/shops/rules/rulesets', document)).statusCode).toBe(422);
    // Variant and collection conditions name their ids in a value: a lost one is kept, a new unknown one refused.
    const conditionOn = (type: string, value: string) => ({
      name: 'Ids in a value',
      rules: [{ logic: [{ rules: [{ type, operator: 'contains_any', value }] }], output: document.rules[0]!.output }],
    });
    for (const [type, value, message] of [
      ['variant', '71', 'unknown variant 71'],
      ['collection', '9,404', 'unknown collection 404'],
    ] as const) {
      const unknown = await t.admin('POST', '/admin/v1/shops/rules/rulesets', conditionOn(type, value));
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().problems).toContainEqual({ path: 'rules[0].logic[0].rules[0].value', message });
    }
    expect((await t.admin('DELETE', `/admin/v1/shops/rules/rulesets/${id}`)).statusCode).toBe(204);
  });

  it('serves the operator catalog the console renders its forms from', async () => {
    const res = await t.admin('GET', '/admin/v1/rule-catalog');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.conditions.map((c: { type: string }) => c.type)).toEqual(CONDITIONS.map((c) => c.type));
    expect(body.outputs.map((o: { type: string }) => o.type)).toEqual(OUTPUTS.map((o) => o.type));
    expect(
      body.conditions
        .find((c: { type: string }) => c.type === 'cart_subtotal')
        .operators.map((o: { code: string }) => o.code),
    ).toEqual([
      'greater_than',
      'greater_than_or_equal_to',
      'less_than',
      'less_than_or_equal_to',
      'equal_to',
      'between',
    ]);
    expect(body.endpoints).toContain('/products/static');
    // The console picks a money input for the subtotal and a whole-number input for the counts.
    const unitOf = (type: string) => body.conditions.find((c: { type: string }) => c.type === type).unit;
    expect([unitOf('cart_subtotal'), unitOf('cart_item_count'), unitOf('cart_line_count'), unitOf('url')]).toEqual([
      'money',
      'count',
      'count',
      undefined,
    ]);
    expect((await t.app.inject('/admin/v1/rule-catalog')).statusCode).toBe(401);
  });

  it('previews a stored ruleset with a trace, and an unsaved one from the body', async () => {
    const { id } = (await t.admin('POST', '/admin/v1/shops/rules/rulesets', ruleset)).json().ruleset;
    const res = await t.admin('POST', `/admin/v1/shops/rules/rulesets/${id}/preview`, {
      cart_subtotal: 80,
      shop_customer_id: '7',
      shop_product_ids: [1],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.map((p: { id: number }) => p.id)).toEqual([2]);
    expect(body.trace.map((r: { status: string }) => r.status)).toEqual(['matched', 'unevaluated']);
    expect(body.trace[0].groups[0].conditions).toEqual([
      { type: 'cart_subtotal', operator: 'greater_than', value: '50', observed: 80, result: true },
      { type: 'customer', operator: 'is_logged_in', value: null, observed: 7, result: true },
    ]);
    const guest = (
      await t.admin('POST', `/admin/v1/shops/rules/rulesets/${id}/preview`, { cart_subtotal: '20' })
    ).json();
    expect(guest.trace[0].groups[0].conditions.map((c: { result: boolean | null }) => c.result)).toEqual([false, null]);
    expect(
      guest.data.map((p: { id: number; variants: { id: number }[] }) => [p.id, p.variants.map((v) => v.id)]),
    ).toEqual([[3, [31]]]);

    const unsaved = await t.admin('POST', '/admin/v1/shops/rules/rulesets/new/preview', {
      ruleset: { name: 'draft', rules: [{ logic: [], output: [{ type: 'collection', collection_id: 9 }] }] },
    });
    expect(unsaved.json().data.map((p: { id: number }) => p.id)).toEqual([1]);
    const invalid = await t.admin('POST', '/admin/v1/shops/rules/rulesets/new/preview', {
      ruleset: { name: 'draft', rules: [{ logic: [], output: [{ type: 'collection' }] }] },
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().field).toBe('rules[0].output[0].collection_id');
    expect((await t.admin('POST', '/admin/v1/shops/rules/rulesets/999/preview', {})).statusCode).toBe(404);
    const nothing = await t.admin('POST', '/admin/v1/shops/rules/rulesets/new/preview', {});
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json()).toMatchObject({ field: 'ruleset', error: expect.stringContaining('"ruleset"') });
    expect(
      (await t.admin('POST', `/admin/v1/shops/rules/rulesets/${id}/preview`, { time: 'soon' })).json().error,
    ).toContain('time');
    expect((await t.admin('POST', `/admin/v1/shops/rules/rulesets/${id}/preview`, [1])).statusCode).toBe(400);
    // A misspelt input would preview a request without it: named. The platform's names and the cart are read.
    const typo = await t.admin('POST', `/admin/v1/shops/rules/rulesets/${id}/preview`, { shop_product_id: '1' });
    expect(typo.statusCode).toBe(400);
    expect(typo.json()).toMatchObject({ code: 'invalid_parameter', parameter: 'shop_product_id' });
    for (const body of [{ shopify_product_ids: '1' }, { cart: { items: [{ product_id: 1 }] } }, { cart_count: '2' }])
      expect((await t.admin('POST', `/admin/v1/shops/rules/rulesets/${id}/preview`, body)).statusCode).toBe(200);
  });

  it('previews with ids as an array, and refuses arrays of anything else naming the parameter', async () => {
    const { id } = (await t.admin('POST', '/admin/v1/shops/rules/rulesets', ruleset)).json().ruleset;
    const path = `/admin/v1/shops/rules/rulesets/${id}/preview`;
    const listed = await t.admin('POST', path, { shop_product_ids: [1, '2'], limit: [2] });
    expect(listed.statusCode, listed.body).toBe(200);
    // Nested arrays were joined into ids (and a limit) the custom endpoint refuses.
    for (const [name, value] of [
      ['shop_product_ids', [[1], [[2]]]],
      ['limit', [[2]]],
      ['shop_product_ids', [{ id: 1 }]],
    ] as const) {
      const res = await t.admin('POST', path, { [name]: value });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().parameter).toBe(name);
    }
    // 10,000 levels overflowed the stack joining them: a 500. Sent as text, which a serializer would overflow on too.
    const deep = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: `{"cart_subtotal":${'['.repeat(10_000)}1${']'.repeat(10_000)}}`,
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().parameter).toBe('cart_subtotal');
  });

  it('keeps a private key to its own shop', async () => {
    expect((await t.admin('GET', '/admin/v1/shops/rules/rulesets', undefined, own.private)).statusCode).toBe(200);
    expect((await t.admin('GET', '/admin/v1/shops/elsewhere/rulesets', undefined, own.private)).statusCode).toBe(404);
  });
});
