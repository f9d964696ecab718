import { afterAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { newShop, shopKeys } from '../helpers/fixtures.js';

const customer = (id: number, email: string) =>
  JSON.stringify({ id: `gid://shopify/Customer/${id}`, email, firstName: 'Ada' });
const order = (id: number, customerId: number) =>
  JSON.stringify({ id: `gid://shopify/Order/${id}`, customer: { id: `gid://shopify/Customer/${customerId}` } });

describe.each(backends())('an erasure during a sync ($name)', (backend) => {
  afterAll(() => backend.cleanup());

  it('removes the staged export lines that name the customer, and only those', async () => {
    const store = await backend.open();
    try {
      const shop = await store.createShop(
        newShop('staged'),
        shopKeys().map((k) => k.record),
      );
      const lines = [
        { gid: 'gid://shopify/Customer/123', parent: null, line: customer(123, 'ada_l@example.com') },
        // Its child (an address), and an order that names it.
        { gid: 'gid://shopify/MailingAddress/9', parent: 'gid://shopify/Customer/123', line: '{"city":"London"}' },
        { gid: 'gid://shopify/Order/500', parent: null, line: order(500, 123) },
        // A guest order the redaction lists, which names the customer only by an e-mail not on file.
        { gid: 'gid://shopify/Order/501', parent: null, line: '{"id":"gid://shopify/Order/501","email":"x@y.z"}' },
        // A line naming them by e-mail alone, in other case.
        {
          gid: 'gid://shopify/Order/502',
          parent: null,
          line: '{"id":"gid://shopify/Order/502","email":"ADA_L@example.com"}',
        },
        // Others: a customer whose id starts with theirs, and that customer's order.
        { gid: 'gid://shopify/Customer/1234', parent: null, line: customer(1234, 'grace@example.com') },
        { gid: 'gid://shopify/Order/600', parent: null, line: order(600, 1234) },
      ];
      await store.stageLines(
        shop.id,
        lines.map((line, i) => ({ seq: i + 1, ...line })),
      );
      await store.eraseCustomer(shop.id, 123, ['ada_l@example.com'], { orderIds: [501] });
      const left = await store.stagedRoots(shop.id, 0, 100);
      expect(left.map((l) => l.gid)).toEqual(['gid://shopify/Customer/1234', 'gid://shopify/Order/600']);
      expect(await store.stagedChildren(shop.id, ['gid://shopify/Customer/123'])).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
