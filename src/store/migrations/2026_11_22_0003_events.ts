import type { Kysely } from 'kysely';

/** Storefront events and their per-day counts per product handle. Frozen. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('uuid', 'text')
    .addColumn('customer_id', 'bigint')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('verb', 'text', (c) => c.notNull())
    .addColumn('noun', 'text', (c) => c.notNull())
    .addColumn('handle', 'text')
    .addColumn('subject_email', 'text')
    .addColumn('theme_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('events_pk', ['shop_id', 'id'])
    .execute();
  await db.schema.createIndex('events_uuid').on('events').columns(['shop_id', 'uuid', 'id']).execute();
  await db.schema.createIndex('events_customer').on('events').columns(['shop_id', 'customer_id', 'id']).execute();

  await db.schema
    .createTable('event_counts')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('handle', 'text', (c) => c.notNull())
    .addColumn('views', 'bigint', (c) => c.notNull())
    .addColumn('adds', 'bigint', (c) => c.notNull())
    .addColumn('removes', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_counts_pk', ['shop_id', 'day', 'handle'])
    .execute();
}
