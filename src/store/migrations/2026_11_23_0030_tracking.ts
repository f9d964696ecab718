import type { Kysely } from 'kysely';

/**
 * Tracked widget events, the orders' attributed lines, and per-day totals per source, so the
 * attribution figures read a day's row instead of every event. Frozen.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('track_events')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('uuid', 'text')
    .addColumn('customer_id', 'bigint')
    .addColumn('source', 'text')
    .addColumn('product_id', 'bigint')
    .addColumn('variant_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('track_events_pk', ['shop_id', 'id'])
    .execute();
  // The click window: a customer's clicks in a time range.
  await db.schema
    .createIndex('track_events_customer')
    .on('track_events')
    .columns(['shop_id', 'customer_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('source_days')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('impressions', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('add_to_carts', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('orders', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('revenue', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('source_days_pk', ['shop_id', 'day', 'source'])
    .execute();

  await db.schema
    .createTable('order_attributions')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('order_id', 'bigint', (c) => c.notNull())
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('via', 'text', (c) => c.notNull())
    .addColumn('product_id', 'bigint', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('revenue', 'bigint', (c) => c.notNull())
    .addColumn('experiment_id', 'bigint')
    .addColumn('arm', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_attributions_pk', ['shop_id', 'order_id', 'line_no'])
    .execute();
}
