import type { Kysely } from 'kysely';

/**
 * What a visitor's tracked events already counted: one row per (visitor, source, product, type,
 * day), so a repeat is acknowledged and not counted again (docs/attribution.md, "Tracking"). An
 * absent source is '' and an absent product 0 (key columns cannot be null). Frozen.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('track_counted')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('product_id', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('track_counted_pk', ['shop_id', 'day', 'visitor', 'source', 'product_id', 'type'])
    .execute();
}
