import type { AddressInfo } from 'node:net';
import { startApp, type TestApp } from '../../helpers/app.js';
import type { Backend } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';

/**
 * A shop as a storefront sees it, served by the real server listening on a port of its own:
 * the real-client suites send each call the way the storefront code they name sends it.
 */
export interface World {
  t: TestApp;
  base: string;
  publicKey: string;
  privateKey: string;
  /** Rule 1: product 1 in the input → products 8, 9. Rule 2: cart subtotal over 50 → product 7. */
  upsellId: number;
  close(): Promise<void>;
}

export const HANDLE = 'storefront';
/** The thank-you page's order: products 3 and 4. */
export const ORDER_ID = 880_001;

const upsells = {
  name: 'Cart upsells',
  rules: [
    {
      name: 'tent upsell',
      logic: [{ rules: [{ type: 'product', operator: 'contains_any', products: [{ product_id: 1 }] }] }],
      output: [{ type: 'product', products: [{ product_id: 8 }, { product_id: 9 }] }],
    },
    {
      name: 'cart subtotal over 50',
      logic: [{ rules: [{ type: 'cart_subtotal', operator: 'greater_than', value: '50' }] }],
      output: [{ type: 'product', products: [{ product_id: 7 }] }],
    },
    {
      name: 'thank-you page',
      logic: [{ rules: [{ type: 'product', operator: 'contains_any', products: [{ product_id: 3 }] }] }],
      output: [{ type: 'product', products: [{ product_id: 5 }] }],
    },
  ],
};

export async function startWorld(backend: Backend): Promise<World> {
  const t = await startApp(backend);
  const shop = await t.createShop(HANDLE, { timezone: 'America/New_York' });
  const put = async (path: string, body: unknown) => {
    const res = await t.admin('PUT', `/admin/v1/shops/${HANDLE}/${path}`, body);
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.body}`);
  };
  const rated = (id: number) => [
    { id: id * 10 + 8, namespace: 'reviews', key: 'avg_rating', value: '4.5', value_type: 'string' },
  ];
  await put(
    'products',
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map((id) => productInput(id, { metafields: rated(id) })),
  );
  await put('customers', [{ id: 4242, email: 'ada@example.com', tags: 'VIP' }]);
  const now = new Date().toISOString();
  await put('orders', [
    {
      id: ORDER_ID,
      created_at: now,
      customer: { id: 4242 },
      line_items: [
        { product_id: 3, variant_id: 31, quantity: 1, price: '10.00' },
        { product_id: 4, variant_id: 41, quantity: 2, price: '10.00' },
      ],
    },
    { id: 880_002, created_at: now, line_items: [{ product_id: 9, quantity: 3, price: '10.00' }] },
  ]);
  const created = await t.admin('POST', `/admin/v1/shops/${HANDLE}/rulesets`, upsells);
  if (created.statusCode !== 201) throw new Error(`ruleset: ${created.body}`);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return {
    t,
    base: `http://127.0.0.1:${port}`,
    publicKey: shop.public,
    privateKey: shop.private,
    upsellId: created.json().ruleset.id,
    close: () => t.close(),
  };
}

/** The ids of a product list, in order. */
export const idsOf = (list: { id: number }[]) => list.map((p) => p.id);

/** An answer's JSON, read as loosely as storefront code reads it. */
// biome-ignore lint/suspicious/noExplicitAny: storefront code reads answers untyped; so do these cases
export const json = (res: Response): Promise<any> => res.json();
