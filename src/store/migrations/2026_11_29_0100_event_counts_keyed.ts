import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * SQLite: the per-day counts become a table without rowids, stored in their key's tree (shop, day,
 * handle). With a rowid the key is a second tree beside the table: for the counts of 401 browsed
 * shops (1.5 million rows) 72 MB beside the table's 68. Keyed, the two are one tree of 72 MB,
 * the intake writes one tree a count instead of two, and a load's sum of a shop's month
 * (`sumEventCounts`) reads the rows where the key finds them. PostgreSQL keeps its table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await db.schema
    .createTable('event_counts_keyed')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('handle', 'text', (c) => c.notNull())
    .addColumn('views', 'bigint', (c) => c.notNull())
    .addColumn('adds', 'bigint', (c) => c.notNull())
    .addColumn('removes', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_counts_pk', ['shop_id', 'day', 'handle'])
    .modifyEnd(sql`without rowid`)
    .execute();
  await sql`insert into event_counts_keyed (shop_id, day, handle, views, adds, removes)
    select shop_id, day, handle, views, adds, removes from event_counts`.execute(db);
  await db.schema.dropTable('event_counts').execute();
  await db.schema.alterTable('event_counts_keyed').renameTo('event_counts').execute();
}
