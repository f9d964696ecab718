import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/store/connect.js';
import { openStore } from '../../src/store/open.js';
import { backends } from '../helpers/backends.js';
import { migratedTo } from '../helpers/migrated-to.js';

/** Whose each billing customer is, written by the migration for those stored before, and read by an export. */
describe.each(backends())('billing customers by owner on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('are found by their link, or unlinked by their e-mail, composed, and no other', async () => {
    const url = await backend.url();
    const before = await migratedTo(url, '2026_12_04_0100_applied_webhook_bodies');
    const shopId = 4;
    const docs = [
      { id: 1, shop_customer_id: 'gid://shopify/Customer/77', email: 'other@example.com', first_name: 'Linked' },
      { id: 2, shop_customer_id: null, email: ' Zoe\u0308@Example.com ', first_name: 'Unlinked' },
      { id: 3, shop_customer_id: '78', email: 'zo\u00eb@example.com', first_name: 'Someone else' },
      { id: 4, email: null, first_name: 'Nobody' },
    ];
    // More rows than the migration reads a page, in another shop.
    const many = Array.from({ length: 600 }, (_, i) => ({ id: 100 + i, shop_customer_id: String(i), email: null }));
    const row = (shop: number, doc: { id: number }) => ({
      shop_id: shop,
      id: doc.id,
      document: JSON.stringify(doc),
      updated_at: 0,
    });
    await before.db
      .insertInto('billing_customers')
      .values([...docs.map((d) => row(shopId, d)), ...many.map((d) => row(shopId + 1, d))])
      .execute();
    await before.db.destroy();

    const store = await openStore(url);
    try {
      const after = connect(url);
      const owners = await after.db
        .selectFrom('billing_customers')
        .select(['id', 'owner'])
        .where('shop_id', '=', shopId)
        .orderBy('id')
        .execute();
      expect(owners.map((o) => [Number(o.id), o.owner])).toEqual([
        [1, 'c:77'],
        [2, 'e:zo\u00eb@example.com'],
        [3, 'c:78'],
        [4, null],
      ]);
      const last = await after.db
        .selectFrom('billing_customers')
        .select('owner')
        .where('shop_id', '=', shopId + 1)
        .where('id', '=', 699)
        .execute();
      expect(last).toEqual([{ owner: 'c:599' }]);
      await after.db.destroy();
      const records = await store.customerRecords(shopId, 77, ['zo\u00eb@example.com']);
      const found = (records.billing_customers as { id: number }[]).map((b) => b.id);
      expect(found).toEqual([1, 2]);
    } finally {
      await store.close();
    }
  });
});
