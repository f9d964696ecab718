import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';

/**
 * A thank-you page's `shop_order_ids` make the order's products the input products. A shop that
 * requires customer signatures must not let the public key walk order ids to read what every order
 * held: only the signed customer's own orders are read (docs/api.md, "Customer signatures").
 */
describe.each(backends())('order ids with the public key, on $name', (backend) => {
  let t: TestApp;
  let shop: { public: string; private: string };
  let sigOf: (customerId: number) => string;
  beforeAll(async () => {
    t = await startApp(backend);
    shop = await t.createShop('orders');
    await t.admin(
      'PUT',
      '/admin/v1/shops/orders/products',
      [1, 2, 3, 4].map((id) => productInput(id)),
    );
    const order = (id: number, customer: number | null, productId: number) => ({
      id,
      created_at: new Date().toISOString(),
      ...(customer === null ? {} : { customer: { id: customer } }),
      line_items: [{ id: id * 10, product_id: productId, variant_id: productId * 10 + 1, quantity: 1, price: '5.00' }],
    });
    await t.admin('PUT', '/admin/v1/shops/orders/orders', [order(501, 77, 1), order(502, 88, 2), order(503, null, 3)]);
    const created = await t.admin('POST', '/admin/v1/shops/orders/rulesets', {
      name: 'thank-you page',
      rules: [{ name: 'all', logic: [], output: [{ type: 'input_products' }] }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const secret = (await t.admin('GET', '/admin/v1/shops/orders/signing-secret')).json().signing_secret;
    sigOf = (customerId) => createHmac('sha256', secret).update(String(customerId)).digest('hex');
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
  });

  const inputsOf = async (query: string, key = shop.public) => {
    const res = await t.app.inject(`/api/v1/custom/id/1?key=${key}&filter_inputs=no&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().metadata.input_products.map((p: { id: number }) => p.id);
  };
  const requireSignatures = async (on: boolean) =>
    expect(
      (await t.admin('PATCH', '/admin/v1/shops/orders', { settings: { require_customer_signature: on } })).statusCode,
    ).toBe(200);

  it('reads any order by default, as the original API does', async () => {
    await requireSignatures(false);
    expect(await inputsOf('shop_order_ids=501,502,503')).toEqual([1, 2, 3]);
  });

  it("reads only the signed customer's orders once the shop requires signatures", async () => {
    await requireSignatures(true);
    // The public key alone: no order is read, a guest's included.
    expect(await inputsOf('shop_order_ids=501,502,503')).toEqual([]);
    expect(await inputsOf('shopify_order_ids=503')).toEqual([]);
    // Signed as customer 77: their order only, not 88's.
    expect(await inputsOf(`shop_order_ids=501,502,503&shop_customer_id=77&customer_sig=${sigOf(77)}`)).toEqual([1]);
    expect(await inputsOf(`shop_order_ids=502&shop_customer_id=77&customer_sig=${sigOf(77)}`)).toEqual([]);
    // A private key (a server) is held to the same rule: the cached answer of a URL is one for every key.
    expect(await inputsOf('shop_order_ids=501,502,503', shop.private)).toEqual([]);
    expect(await inputsOf('shop_order_ids=502&shop_customer_id=88', shop.private)).toEqual([2]);
    await requireSignatures(false);
    expect(await inputsOf('shop_order_ids=502')).toEqual([2]);
  });
});
