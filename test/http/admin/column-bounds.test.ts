import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';

/**
 * Values SQLite stores and PostgreSQL's columns cannot hold are refused on both, naming the row
 * and field: each was a 500 on PostgreSQL (an import, and the platform's sync of it, failed whole)
 * and stored as sent on SQLite.
 */
describe.each(backends())('values past what a column holds, on $name', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(backend);
    await t.createShop('s');
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const stored = async () => (await t.admin('GET', '/admin/v1/shops/s/products?limit=10')).json().total as number;

  it('refuses a stock level past a billion units', async () => {
    const product = productInput(1);
    product.variants[0]!.inventory_quantity = 1e19;
    const res = await t.admin('PUT', '/admin/v1/shops/s/products', [productInput(2), product]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ index: 1, field: 'variants[0].inventory_quantity' });
    expect(await stored()).toBe(0);
  });

  it('refuses a variant listed twice in one product', async () => {
    const product = productInput(3);
    product.variants.push({ ...product.variants[0]! });
    const res = await t.admin('PUT', '/admin/v1/shops/s/products', [product]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ index: 0, field: 'variants[2].id' });
    expect(res.json().error).toContain('variant 31 is listed twice');
    expect(await stored()).toBe(0);
  });

  it('refuses a position past what an integer column holds', async () => {
    expect((await t.admin('PUT', '/admin/v1/shops/s/products', [productInput(4)])).statusCode).toBe(200);
    const collection = { id: 1, title: 'C', handle: 'c', products: [{ product_id: 4, position: 3e9 }] };
    const res = await t.admin('PUT', '/admin/v1/shops/s/collections', [collection]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ index: 0, field: 'products[0].position' });
    collection.products[0]!.position = 2_147_483_647;
    expect((await t.admin('PUT', '/admin/v1/shops/s/collections', [collection])).statusCode).toBe(200);
  });
});
