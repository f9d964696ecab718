import { sql, type Kysely } from 'kysely';

/**
 * A shop's load snapshot (§23): the parts of its read model a load reads, packed in one value
 * and written after a load read them part by part, so the next load of the shop reads one row.
 * It stands for one `data_version` of the shop; every write that moves the version deletes it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shop_snapshots')
    .addColumn('shop_id', 'bigint', (c) => c.primaryKey())
    .addColumn('data_version', 'bigint', (c) => c.notNull())
    .addColumn('format', 'integer', (c) => c.notNull())
    .addColumn('body', sql`bytea`, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
