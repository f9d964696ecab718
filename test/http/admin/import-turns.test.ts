import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';

/**
 * A large import shares the event loop (docs/scaling.md, "Imports beside serving"): while it is validated and
 * written, a shop already in memory answers. Shown by the order the two finish in, not by time.
 */
describe.each(backends())('an import beside a resident shop, on $name', (backend) => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('resident')).public;
    const unlimited = { settings: { rate_limit_public_per_minute: 100_000 } };
    expect((await t.admin('PATCH', '/admin/v1/shops/resident', unlimited)).statusCode).toBe(200);
    await t.createShop('importing');
    await t.admin('PUT', '/admin/v1/shops/resident/products', [productInput(1), productInput(2)]);
    // Loaded now: its next answers come from memory.
    expect((await t.app.inject(`/api/v1/products/trending_products?key=${key}`)).statusCode).toBe(200);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it("answers the resident shop's requests while a 3,000-product import is validated and written", async () => {
    const products = Array.from({ length: 3000 }, (_, i) => productInput(1000 + i));
    let imported = false;
    const importing = t.admin('PUT', '/admin/v1/shops/importing/products', products).then((res) => {
      imported = true;
      return res;
    });
    // One request after another for as long as the import runs, each arriving on a turn of the event
    // loop of its own, as a request from the network does (inject alone answers from memory in microtasks).
    let answeredMeanwhile = 0;
    while (!imported) {
      await new Promise((resolve) => setImmediate(resolve));
      const res = await t.app.inject(`/api/v1/products/trending_products?key=${key}&bust_cache=yes`);
      expect(res.statusCode).toBe(200);
      if (!imported) answeredMeanwhile++;
    }
    const res = await importing;
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.json().upserted).toBe(3000);
    console.info(`answered while importing: ${answeredMeanwhile}`);
    // The import takes 33 turns on SQLite (3 of validation, 30 of writing); written in one stretch, it left room for 1.
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(15);
  });
});
