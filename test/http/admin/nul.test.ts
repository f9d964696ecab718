import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';

/**
 * U+0000 (or a lone surrogate) in any value sent is a 4xx naming where it is, on both databases:
 * PostgreSQL's text cannot hold it (customers, collections, a shop's or a ruleset's name were a
 * 500 there), and SQLite stored it as sent.
 */
describe.each(backends())('a NUL character in what a request sends, on $name', (backend) => {
  let t: TestApp;
  let key: string;
  const nul = '\u0000';
  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('s')).public;
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it('is refused in admin JSON bodies, arrays and NDJSON, naming the row and field', async () => {
    const customers = await t.admin('PUT', '/admin/v1/shops/s/customers', [
      { id: 1, email: 'a@x.io' },
      { id: 2, email: `b${nul}@x.io` },
    ]);
    expect(customers.statusCode).toBe(422);
    expect(customers.json()).toMatchObject({ index: 1, field: 'email' });
    expect(customers.json().error).toBe(
      'Row 1 of the JSON array: email: holds a NUL character (U+0000), which no value may hold.',
    );
    const collection = { id: 1, title: `C${nul}`, handle: 'c', products: [] };
    expect((await t.admin('PUT', '/admin/v1/shops/s/collections', [collection])).statusCode).toBe(422);
    const ndjson = await t.app.inject({
      method: 'PUT',
      url: '/admin/v1/shops/s/customers',
      headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/x-ndjson' },
      payload: `{"id": 3}\n{"id": 4, "tags": "vip\\u0000"}\n`,
    });
    expect(ndjson.statusCode).toBe(422);
    expect(ndjson.json()).toMatchObject({ index: 1, field: 'tags' });
    const renamed = await t.admin('PATCH', '/admin/v1/shops/s', { name: `Shop${nul}` });
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json().field).toBe('name');
    const ruleset = await t.admin('POST', '/admin/v1/shops/s/rulesets', { name: `R${nul}`, rules: [] });
    expect(ruleset.statusCode).toBe(422);
    // Nothing of them was stored; an escaped backslash before "u0000" is no NUL, and is kept as sent.
    const literal = await t.admin('PUT', '/admin/v1/shops/s/customers', [{ id: 5, email: 'a\\u0000@x.io' }]);
    expect(literal.json()).toEqual({ upserted: 1, erased: 0 });
    const shop = await t.services.store.getShopByHandle('s');
    const stored = await t.services.store.listCustomers(shop!.id);
    expect(stored.map((c) => [c.id, c.email])).toEqual([[5, 'a\\u0000@x.io']]);
    expect((await t.services.store.getShopByHandle('s'))?.name).toBe('Shop s');
  });

  it('refuses an unpaired surrogate as well: two handles that differ only there were one on PostgreSQL', async () => {
    const json = (text: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/admin/v1/shops/s/customers',
        headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/json' },
        payload: text,
      });
    const lone = await json('[{"id": 7, "email": "z-\\ud800@x.io"}]');
    expect(lone.statusCode).toBe(422);
    expect(lone.json()).toMatchObject({ index: 0, field: 'email' });
    expect(lone.json().error).toContain('unpaired surrogate');
    const ruleset = await t.admin('POST', '/admin/v1/shops/s/rulesets', { name: 'R\udbff', rules: [] });
    expect(ruleset.statusCode).toBe(422);
    // A whole pair, escaped or not, is a character like any other.
    expect((await json('[{"id": 8, "email": "\\ud83d\\ude00@x.io"}]')).statusCode).toBe(200);
    const shop = await t.services.store.getShopByHandle('s');
    expect((await t.services.store.listCustomers(shop!.id)).find((c) => c.id === 8)?.email).toBe('\u{1f600}@x.io');
  });

  it('is found in a body nested 100,000 deep: a 422, not a stack overflow', async () => {
    const depth = 100_000;
    const body = `[{"id": 6, "tags": ${'['.repeat(depth)}"x\\u0000"${']'.repeat(depth)}}]`;
    const res = await t.app.inject({
      method: 'PUT',
      url: '/admin/v1/shops/s/customers',
      headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/json' },
      payload: body,
    });
    expect(res.statusCode).toBe(422);
    // Named by its innermost levels: the path of a deep body is not spelled whole into the answer.
    expect(res.json().field).toBe(`…${'[0]'.repeat(64)}`);
  });

  it('is refused in a storefront parameter, naming it', async () => {
    const res = await t.app.inject(`/api/v1/products/search?key=${key}&query=wool%00`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_parameter' });
    expect(res.json().error).toContain('query');
  });
});
