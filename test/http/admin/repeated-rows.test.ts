import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const at = '2026-11-01T10:00:00Z';
/** One valid row per bulk import, made with the key it is named by (docs/api.md, "Admin API"). */
const imports: [path: string, key: string, row: (key: number) => Record<string, unknown>][] = [
  ['products', 'id', (id) => productInput(id) as unknown as Record<string, unknown>],
  ['orders', 'id', (id) => ({ id, created_at: at, line_items: [{ product_id: 1, quantity: 1 }] })],
  ['customers', 'id', (id) => ({ id, tags: 'vip' })],
  ['collections', 'id', (id) => ({ id, title: `C${id}`, handle: `c-${id}`, products: [] })],
  ['markets', 'id', (id) => ({ id, name: `M${id}`, countries: ['DE'], currency: 'EUR' })],
  ['inventory', 'variant_id', (id) => ({ variant_id: id, inventory_quantity: 3 })],
  ['billing/customers', 'id', (id) => ({ id, email: `c${id}@example.com` })],
  ['billing/addresses', 'id', (id) => ({ id, customer_id: 1, address1: 'a', city: 'b', zip: 'c', country_code: 'DE' })],
];

/**
 * A row named twice in one import was a 500 on PostgreSQL (ON CONFLICT cannot change a row twice)
 * and, for orders, on SQLite too; elsewhere one row silently replaced the other. It is a 422.
 */
describe.each(backends())('a key repeated within one import, on $name', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(backend);
    await t.createShop('shop');
    // Product 1 with variants 11 and 12, for the inventory rows.
    expect((await t.admin('PUT', '/admin/v1/shops/shop/products', [productInput(1)])).statusCode).toBe(200);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it.each(imports)('%s: the second row of a %s is refused, naming both rows', async (path, key, row) => {
    const id = key === 'variant_id' ? 12 : 5;
    const res = await t.admin('PUT', `/admin/v1/shops/shop/${path}`, [
      row(key === 'variant_id' ? 11 : 4),
      row(id),
      row(id),
    ]);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(422);
    expect(res.json()).toMatchObject({ index: 2, field: key });
    expect(res.json().error).toBe(
      `Row 2 of the ${label(path)}: ${key}: ${id} is also the ${key} of row 1 of the same request.`,
    );
    // Distinct keys are taken, so the refusal was the repeat's.
    const fine = await t.admin('PUT', `/admin/v1/shops/shop/${path}`, [row(key === 'variant_id' ? 11 : 4), row(id)]);
    expect(fine.statusCode, fine.body.slice(0, 200)).toBe(200);
  });
});

function label(path: string): string {
  if (path === 'inventory') return 'inventory levels';
  return path.replace('billing/', 'billing ');
}
