import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRENDING } from '../../src/domain/ranking/trending.js';
import { buildSales } from '../../src/indexes/sales.js';
import { connect } from '../../src/store/connect.js';
import { createKyselyStore } from '../../src/store/kysely/index.js';
import type { SoldLine } from '../../src/store/kysely/commerce.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { openStore } from '../../src/store/open.js';
import { backends } from '../helpers/backends.js';
import { newShop, shopKeys } from '../helpers/fixtures.js';
import { DAY, NOW, plainSales as plain, someOrders } from '../helpers/sold-orders.js';

describe.each(backends())('Order lines of cancelled orders on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it(
    'are marked by the migration, by upserts and kept through ' + 'redaction; sales figures as the join gave them',
    async () => {
      const url = await backend.url();
      const orders = someOrders(90);
      // The database as the release before: the orders written, then migrated to the lines' flag.
      const before = connect(url);
      const migrator = new Migrator({
        db: before.db,
        provider: migrationProvider,
        ...(before.schema ? { migrationTableSchema: before.schema } : {}),
      });
      const { error } = await migrator.migrateTo('2026_11_26_0200_serving_deflated');
      expect(error).toBeUndefined();
      const shopId = 5;
      for (const o of orders) {
        const { lines, ...order } = o;
        await before.db
          .insertInto('orders')
          .values({ shop_id: shopId, ...order })
          .execute();
        await sql`insert into order_lines (shop_id, order_id, line_no, product_id, variant_id, quantity, price,
        customer_id, created_at) values ${sql.join(
          lines.map(
            (l, n) =>
              sql`(${shopId}, ${o.id}, ${n}, ${l.product_id}, ${l.variant_id}, ${l.quantity}, ${l.price},
                ${o.customer_id}, ${o.created_at})`,
          ),
        )}`.execute(before.db);
      }
      await before.db.destroy();

      const store = await openStore(url);
      try {
        // The old read: a join to orders to drop the cancelled ones.
        const joined = connect(url);
        const oldRows = await joined.db
          .selectFrom('order_lines as l')
          .innerJoin('orders as o', (j) => j.onRef('o.shop_id', '=', 'l.shop_id').onRef('o.id', '=', 'l.order_id'))
          .select(['l.order_id', 'l.product_id', 'l.quantity', 'l.customer_id', 'l.created_at'])
          .where('l.shop_id', '=', shopId)
          .where('o.cancelled_at', 'is', null)
          .orderBy('l.created_at')
          .orderBy('l.order_id')
          .orderBy('l.line_no')
          .execute();
        await joined.db.destroy();
        const expected: SoldLine[] = oldRows.map((r) => ({
          orderId: Number(r.order_id),
          productId: Number(r.product_id),
          quantity: Number(r.quantity),
          customerId: r.customer_id === null ? null : Number(r.customer_id),
          at: Number(r.created_at),
        }));
        const cancelled = orders.filter((o) => o.cancelled_at !== null);
        expect(cancelled.length).toBeGreaterThan(5);
        expect(expected.length).toBe(
          orders.filter((o) => o.cancelled_at === null).reduce((n, o) => n + o.lines.length, 0),
        );

        const sold = await store.listSoldLines(shopId);
        expect(sold.map((l) => ({ ...l }))).toEqual(expected);
        expect(
          (await store.listOrderLines(shopId, 0)).map((l) => [l.order_id, l.product_id, l.customer_id, l.created_at]),
        ).toEqual(expected.map((l) => [l.orderId, l.productId, l.customerId, l.at]));
        const since = NOW - 30 * DAY;
        expect((await store.listOrderLines(shopId, since)).map((l) => l.order_id)).toEqual(
          expected.filter((l) => l.at >= since).map((l) => l.orderId),
        );

        const customers = [...new Set(orders.map((o) => o.customer_id ?? 0))];
        const products = Array.from({ length: 18 }, (_, p) => p + 1);
        for (const settings of [DEFAULT_TRENDING, { ...DEFAULT_TRENDING, counts: 'units' as const }])
          expect(plain(buildSales(sold, NOW, settings), customers, products)).toEqual(
            plain(buildSales(expected, NOW, settings), customers, products),
          );

        // An upsert sets the flag both ways: a cancelled order comes back, a counted one is cancelled.
        const back = { ...cancelled[0]!, cancelled_at: null };
        const gone = { ...orders.find((o) => o.cancelled_at === null)!, cancelled_at: NOW };
        await store.upsertOrders(shopId, [back, gone]);
        const orderIds = new Set((await store.listSoldLines(shopId)).map((l) => l.orderId));
        expect(orderIds.has(back.id)).toBe(true);
        expect(orderIds.has(gone.id)).toBe(false);
        expect(orderIds.size).toBe(orders.length - cancelled.length);

        // Redaction drops the customer from the lines, not the lines nor their flag.
        const customer = back.customer_id ?? orders.find((o) => o.customer_id !== null)!.customer_id!;
        const count = (await store.listSoldLines(shopId)).length;
        await store.eraseCustomer(shopId, customer);
        const after = await store.listSoldLines(shopId);
        expect(after.length).toBe(count);
        expect(after.some((l) => l.customerId === customer)).toBe(false);
        expect(new Set(after.map((l) => l.orderId)).has(gone.id)).toBe(false);
      } finally {
        await store.close();
      }
    },
  );

  it('are read after a transaction open on the connection ends, never with its uncommitted lines', async () => {
    const connection = connect(await backend.url());
    const store = createKyselyStore(connection);
    try {
      await store.migrate();
      const shopId = 9;
      await store.upsertOrders(shopId, someOrders(6));
      const committed = await store.listSoldLines(shopId);
      expect(committed.length).toBeGreaterThan(0);
      let reading: Promise<SoldLine[]> | undefined;
      const rolledBack = connection.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('order_lines')
          .values({
            ...{ shop_id: shopId, order_id: 1, line_no: 0, product_id: 77, variant_id: null, quantity: 1 },
            ...{ price: '1.00', customer_id: null, created_at: NOW, cancelled: 0 },
          })
          .execute();
        // Started while the transaction is open (on SQLite, on its one connection), read after it.
        reading = store.listSoldLines(shopId);
        throw new Error('rolled back');
      });
      await expect(rolledBack).rejects.toThrow('rolled back');
      expect(await reading).toEqual(committed);
    } finally {
      await store.close();
    }
  });

  it('reads nothing for a shop without orders', async () => {
    const store = await openStore(await backend.url());
    try {
      const shop = await store.createShop(
        newShop('empty'),
        shopKeys().map((k) => k.record),
      );
      expect(await store.listSoldLines(shop.id)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
