import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { rawReader } from './load-reads.js';
import { writeWithoutWaiting } from './no-wait.js';

/**
 * Shops' load snapshots (§23, docs/scaling.md): the parts of a shop's read model packed in one
 * value (src/indexes/shop-snapshot.ts), good for one `data_version` of the shop and one format.
 * `bumpDataVersion` deletes a shop's snapshot with every write that moves its version, in the
 * writer's transaction: a snapshot never outlives the data it was made of (an erased customer).
 */
export interface SnapshotStore {
  /** The shop's snapshot of this version and format, or null. */
  getShopSnapshot(shopId: number, dataVersion: number, format: number): Promise<Uint8Array | null>;
  /**
   * Stores a snapshot made of the shop at `dataVersion`, only if that is still the shop's version;
   * false when it is not, or (SQLite) when another process holds the write lock: a snapshot is
   * worth no wait, the next load makes it again.
   */
  putShopSnapshot(shopId: number, dataVersion: number, format: number, body: Uint8Array): Promise<boolean>;
}

export interface SnapshotTables {
  shop_snapshots: {
    shop_id: number;
    data_version: number;
    format: number;
    body: Uint8Array;
    created_at: number;
  };
}

export function snapshotMethods(db: Kysely<Database>, sqlite?: SQLite.Database): SnapshotStore {
  const readHere = sqlite
    ? rawReader<[number, number, number], [Buffer]>(
        db,
        sqlite,
        'select body from shop_snapshots where shop_id = ? and data_version = ? and format = ?',
      )
    : null;
  return {
    async getShopSnapshot(shopId, dataVersion, format) {
      if (readHere) return (await readHere(shopId, dataVersion, format))[0]?.[0] ?? null;
      const row = await db
        .selectFrom('shop_snapshots')
        .select('body')
        .where('shop_id', '=', shopId)
        .where('data_version', '=', dataVersion)
        .where('format', '=', format)
        .executeTakeFirst();
      return row?.body ?? null;
    },
    putShopSnapshot: sqlite ? sqlitePut(db, sqlite) : postgresPut(db),
  };
}

/**
 * The row comes from the shop's own row, and only while the shop is at that version: a write that
 * moved it after the snapshot's parts were read has deleted the shop's snapshot, and this inserts none.
 */
const insertIfCurrent = (db: Kysely<Database>, shopId: number, dataVersion: number, format: number, body: Uint8Array) =>
  db
    .insertInto('shop_snapshots')
    .columns(['shop_id', 'data_version', 'format', 'body', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('shops')
        .select([
          'id',
          'data_version',
          sql<number>`${format}`.as('format'),
          sql<Uint8Array>`${body}`.as('body'),
          sql<number>`${Date.now()}`.as('created_at'),
        ])
        .where('id', '=', shopId)
        .where('data_version', '=', dataVersion),
    )
    .onConflict((oc) =>
      oc.column('shop_id').doUpdateSet((eb) => ({
        data_version: eb.ref('excluded.data_version'),
        format: eb.ref('excluded.format'),
        body: eb.ref('excluded.body'),
        created_at: eb.ref('excluded.created_at'),
      })),
    );

/** SQLite: one statement, so no other writer falls between the version's check and the insert; no wait for the lock. */
function sqlitePut(db: Kysely<Database>, sqlite: SQLite.Database): SnapshotStore['putShopSnapshot'] {
  return (shopId, dataVersion, format, body) =>
    writeWithoutWaiting(db, sqlite, async (connection) => {
      const result = await insertIfCurrent(connection, shopId, dataVersion, format, body).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    });
}

/**
 * PostgreSQL: the shop's row is locked for share while the snapshot is written, so a concurrent
 * write that moves the version (and deletes the snapshot) either waits for this insert, then
 * deletes what it wrote, or commits first and this insert finds another version.
 */
function postgresPut(db: Kysely<Database>): SnapshotStore['putShopSnapshot'] {
  return (shopId, dataVersion, format, body) =>
    db.transaction().execute(async (trx) => {
      const shop = await trx
        .selectFrom('shops')
        .select('data_version')
        .where('id', '=', shopId)
        .forShare()
        .executeTakeFirst();
      if (!shop || Number(shop.data_version) !== dataVersion) return false;
      const result = await insertIfCurrent(trx, shopId, dataVersion, format, body).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    });
}
