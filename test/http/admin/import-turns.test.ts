import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';
import { answeredWhile, residentBesideImporting } from '../../helpers/turns.js';

/**
 * A large import shares the event loop (docs/scaling.md, "Imports beside serving"): while it is validated and
 * written, a shop already in memory answers. Shown by the order the two finish in, not by time.
 */
describe.each(backends())('an import beside a resident shop, on $name', (backend) => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startApp(backend);
    key = await residentBesideImporting(t);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it("answers the resident shop's requests while a 3,000-product import is validated and written", async () => {
    const products = Array.from({ length: 3000 }, (_, i) => productInput(1000 + i));
    const importing = t.admin('PUT', '/admin/v1/shops/importing/products', products);
    const answered = await answeredWhile(t, key, importing);
    const res = await importing;
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.json().upserted).toBe(3000);
    console.info(`answered while importing products: ${answered}`);
    // About 45 turns on SQLite (parsing, validation, lookups, 29 between slices); in one stretch, it left room for 1.
    expect(answered).toBeGreaterThanOrEqual(15);
  });

  it("answers the resident shop's requests while 5,000 orders are validated and written", async () => {
    const at = new Date().toISOString();
    const orders = Array.from({ length: 5000 }, (_, i) => ({
      id: i + 1,
      created_at: at,
      line_items: [1000, 1001, 1002].map((product_id) => ({ product_id, quantity: 1 })),
    }));
    const importing = t.admin('PUT', '/admin/v1/shops/importing/orders', orders);
    const answered = await answeredWhile(t, key, importing);
    const res = await importing;
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.json().upserted).toBe(5000);
    console.info(`answered while importing orders: ${answered}`);
    // About 18 turns on SQLite (8 in validation, 9 between slices); in one stretch, it left room for 5.
    expect(answered).toBeGreaterThanOrEqual(8);
  });

  it("answers the resident shop's requests while collections of thousands of members are checked", async () => {
    // The 3,000 products of the first test, in each of six collections.
    const members = Array.from({ length: 3000 }, (_, i) => ({ product_id: 1000 + i }));
    const collections = Array.from({ length: 6 }, (_, c) => ({
      id: c + 1,
      title: `C${c}`,
      handle: `c-${c}`,
      products: members,
    }));
    const importing = t.admin('PUT', '/admin/v1/shops/importing/collections', collections);
    const answered = await answeredWhile(t, key, importing);
    const res = await importing;
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    console.info(`answered while importing collections: ${answered}`);
    // About 25 turns on SQLite: one after each collection checked and each made, beside the lookups' and
    // the writes'. Checked all at once, the collections left room for 14.
    expect(answered).toBeGreaterThanOrEqual(20);
  });
});
