import { afterAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Collection } from '../../src/domain/catalog/collection.js';
import { connect } from '../../src/store/connect.js';
import { createKyselyStore } from '../../src/store/kysely/index.js';
import type { Database } from '../../src/store/schema.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { BIG, product } from '../helpers/fixtures.js';

const UPDATED = '2026-03-01T00:00:00.000Z';

/** A store on its own connection, so that a test can open a transaction beside the store's reads. */
async function opened(url: string): Promise<{ store: Store; db: Kysely<Database> }> {
  const connection = connect(url);
  const store = createKyselyStore(connection);
  await store.migrate();
  return { store, db: connection.db };
}

/**
 * Starts `read` while a transaction that wrote `write`'s rows is open (on SQLite, on the store's
 * one connection), then rolls the transaction back; the read's answer.
 */
async function readBesideRolledBack<T>(
  db: Kysely<Database>,
  write: (trx: Kysely<Database>) => Promise<unknown>,
  read: () => Promise<T>,
): Promise<T> {
  let reading: Promise<T> | undefined;
  const rolledBack = db.transaction().execute(async (trx) => {
    await write(trx);
    reading = read();
    throw new Error('rolled back');
  });
  await expect(rolledBack).rejects.toThrow('rolled back');
  return reading!;
}

/** The reads of a shop's load (SQLite reads them with statements of their own): the same rows on every backend. */
describe.each(backends())('Reads of a shop load on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('lists collections by id, members by position then product id, members of no collection left out', async () => {
    const { store, db } = await opened(await backend.url());
    try {
      const collections: Collection[] = [
        {
          id: BIG + 1,
          title: 'Late',
          handle: 'late',
          updated_at: UPDATED,
          products: [
            { product_id: BIG + 5, position: 2 },
            { product_id: 9, position: 2 },
            { product_id: 4, position: 7 },
            { product_id: BIG, position: 1 },
          ],
        },
        { id: 3, title: 'Empty', handle: 'empty', updated_at: UPDATED, products: [] },
        { id: 2, title: 'Two', handle: 'two', updated_at: UPDATED, products: [{ product_id: 9, position: 0 }] },
      ];
      await store.upsertCollections(1, collections);
      await db
        .insertInto('collection_products')
        .values({ shop_id: 1, collection_id: 77, product_id: 1, position: 1 })
        .execute();
      expect(await store.listCollections(1)).toEqual([
        collections[2],
        collections[1],
        {
          ...collections[0],
          products: [
            { product_id: BIG, position: 1 },
            { product_id: 9, position: 2 },
            { product_id: BIG + 5, position: 2 },
            { product_id: 4, position: 7 },
          ],
        },
      ]);
      expect(await store.listCollections(2)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('lists customers in id order, each with tags of its own', async () => {
    const { store } = await opened(await backend.url());
    try {
      await store.upsertCustomers(1, [
        { id: BIG, email: null, tags: ['vip', 'newsletter'] },
        { id: 9, email: 'c@example.com', tags: ['vip', 'newsletter'] },
        { id: 8, email: 'a@example.com', tags: [] },
        { id: 7, email: 'b@example.com', tags: [] },
      ]);
      const customers = await store.listCustomers(1);
      expect(customers).toEqual([
        { id: 7, email: 'b@example.com', tags: [] },
        { id: 8, email: 'a@example.com', tags: [] },
        { id: 9, email: 'c@example.com', tags: ['vip', 'newsletter'] },
        { id: BIG, email: null, tags: ['vip', 'newsletter'] },
      ]);
      // In pages after an id, as the read model reads them again after a write: the same rows, in turn.
      const ids = async (afterId: number, limit: number) =>
        (await store.listCustomers(1, { afterId, limit })).map((c) => c.id);
      expect(await ids(0, 2)).toEqual([7, 8]);
      expect(await ids(8, 2)).toEqual([9, BIG]);
      expect(await ids(BIG, 2)).toEqual([]);
      expect(customers[0]!.tags).not.toBe(customers[1]!.tags);
      customers[2]!.tags.push('changed');
      expect(customers[3]!.tags).toEqual(['vip', 'newsletter']);
    } finally {
      await store.close();
    }
  });

  it('reads pages of served products as the whole listing gives them', async () => {
    const { store } = await opened(await backend.url());
    try {
      await store.upsertProducts(1, [product(BIG), product(3), product(5), product(4)]);
      const all = await store.listServedProducts(1, {});
      expect(all.map((r) => r.id)).toEqual([3, 4, 5, BIG]);
      expect(await store.listServedProducts(1, { afterId: 0, limit: 2 })).toEqual(all.slice(0, 2));
      expect(await store.listServedProducts(1, { afterId: 4, limit: 2 })).toEqual(all.slice(2));
      expect(await store.listServedProducts(1, { afterId: 3 })).toEqual(all.slice(1));
      expect(await store.listServedProducts(1, { afterId: BIG, limit: 2 })).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('reads after a transaction open on the connection ends, never its uncommitted rows', async () => {
    const { store, db } = await opened(await backend.url());
    try {
      await store.upsertProducts(1, [product(1)]);
      await store.upsertCustomers(1, [{ id: 1, email: null, tags: [] }]);
      await store.upsertCollections(1, [
        { id: 1, title: 'C', handle: 'c', updated_at: UPDATED, products: [{ product_id: 1, position: 1 }] },
      ]);
      const member = { shop_id: 1, collection_id: 1, product_id: 2, position: 0 };
      const customer = { shop_id: 1, id: 2, email: null, tags: '[]', updated_at: 0 };
      const cases: [write: (trx: Kysely<Database>) => Promise<unknown>, read: () => Promise<unknown>][] = [
        [(trx) => trx.insertInto('collection_products').values(member).execute(), () => store.listCollections(1)],
        [(trx) => trx.insertInto('customers').values(customer).execute(), () => store.listCustomers(1)],
        [
          (trx) => trx.deleteFrom('products').where('shop_id', '=', 1).execute(),
          () => store.listServedProducts(1, { afterId: 0, limit: 10 }),
        ],
      ];
      for (const [write, read] of cases) {
        const committed = await read();
        expect(await readBesideRolledBack(db, write, read)).toEqual(committed);
      }
    } finally {
      await store.close();
    }
  });

  // SQLite's one connection: PostgreSQL's reads take a connection of the pool as they always did.
  it.runIf(backend.name === 'sqlite')('reads at once while the connection is held outside a transaction', async () => {
    const { store, db } = await opened(await backend.url());
    try {
      await store.upsertCustomers(1, [{ id: 1, email: null, tags: [] }]);
      let release = () => {};
      const held = db.connection().execute(() => new Promise<void>((resolve) => (release = resolve)));
      let read: unknown;
      const reading = store.listCustomers(1).then((customers) => (read = customers));
      for (let turn = 0; turn < 5 && read === undefined; turn++) await new Promise((r) => setImmediate(r));
      // Before the holder lets go: on SQLite's one connection a read that took Kysely's lock would still wait.
      expect(read).toEqual([{ id: 1, email: null, tags: [] }]);
      release();
      await Promise.all([held, reading]);
    } finally {
      await store.close();
    }
  });
});
