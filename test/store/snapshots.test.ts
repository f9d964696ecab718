import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRENDING } from '../../src/domain/ranking/trending.js';
import { packServed } from '../../src/indexes/product-serving.js';
import { foldSales } from '../../src/indexes/sales.js';
import { encodeSnapshot, SNAPSHOT_FORMAT } from '../../src/indexes/shop-snapshot.js';
import { CustomerIndex } from '../../src/indexes/customer-index.js';
import { openStore } from '../../src/store/open.js';
import { backends, PG_URL } from '../helpers/backends.js';
import { newShop } from '../helpers/fixtures.js';

const postgres = backends().filter((b) => b.name === 'postgres');

/** Whether a session of the database waits for a lock in a statement like this one. */
async function waitingOn(client: pg.Client, statement: string): Promise<boolean> {
  const { rows } = await client.query(
    `select count(*)::int as n from pg_stat_activity
      where wait_event_type = 'Lock' and datname = current_database() and query ilike $1`,
    [statement],
  );
  return rows[0].n > 0;
}

/** Polls until the condition holds (at most 10 s: a state the test awaits, not a time it assumes). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000 && !(await condition()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * A load's snapshot written while another session deletes the shop (PostgreSQL, where they run at
 * once; SQLite's one writer runs a snapshot's single statement before or after a transaction).
 */
describe.skipIf(postgres.length === 0)('a load snapshot and a shop deleted meanwhile on postgres', () => {
  const backend = postgres[0]!;
  afterAll(() => backend?.cleanup());

  it('is not left behind by a snapshot stored while the deletion waits', async () => {
    const url = await backend.url();
    const store = await openStore(url);
    const locker = new pg.Client({ connectionString: PG_URL });
    await locker.connect();
    try {
      const shop = await store.createShop(newShop('gone'), []);
      await store.upsertCustomers(shop.id, [{ id: 1, email: 'erased@example.com', tags: [] }]);
      const version = (await store.getShopById(shop.id))!.data_version;
      // What a load read at that version, before the deletion began.
      const body = encodeSnapshot({
        products: packServed([]),
        collections: [],
        markets: [],
        customers: CustomerIndex.of(await store.listCustomers(shop.id)),
        sales: foldSales([], Date.now(), DEFAULT_TRENDING),
      });
      // The deletion pauses at a table it empties after the snapshots' while another session holds it.
      await locker.query(`set search_path = ${new URL(url).searchParams.get('schema')}`);
      await locker.query('begin');
      await locker.query('lock table variants in access exclusive mode');
      const deleting = store.deleteShopData(shop.id);
      await until(() => waitingOn(locker, '%delete from "variants"%'));
      let settled = false;
      const storing = store.putShopSnapshot(shop.id, version, SNAPSHOT_FORMAT, body).finally(() => {
        settled = true;
      });
      // Stored at once (the shop's row free), or waiting for the deletion's lock on it.
      await until(async () => settled || (await waitingOn(locker, '%for share%')));
      await locker.query('commit');
      await deleting;
      expect(await storing).toBe(false);
      const left = await locker.query('select count(*)::int as n from shop_snapshots');
      expect(left.rows[0].n).toBe(0);
    } finally {
      await locker.end();
      await store.close();
    }
  });
});
