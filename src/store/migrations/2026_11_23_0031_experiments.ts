import { sql, type Kysely } from 'kysely';

/** Experiments, the visitors each arm served, and per-arm per-day totals for the results. Frozen. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('experiments')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('ruleset_id', 'bigint', (c) => c.notNull())
    .addColumn('arms', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('winner', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('stopped_at', 'bigint')
    .addPrimaryKeyConstraint('experiments_pk', ['shop_id', 'id'])
    .execute();
  // One running experiment per ruleset, whichever node creates it.
  await db.schema
    .createIndex('experiments_running')
    .on('experiments')
    .columns(['shop_id', 'ruleset_id'])
    .unique()
    .where(sql.ref('status'), '=', sql.lit('running'))
    .execute();

  await db.schema
    .createTable('experiment_visitors')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('experiment_id', 'bigint', (c) => c.notNull())
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('arm', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('experiment_visitors_pk', ['shop_id', 'experiment_id', 'visitor'])
    .execute();

  await db.schema
    .createTable('experiment_days')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('experiment_id', 'bigint', (c) => c.notNull())
    .addColumn('arm', 'integer', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('visitors', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('impressions', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('add_to_carts', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('orders', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('revenue', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('revenue_sq', 'double precision', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('experiment_days_pk', ['shop_id', 'experiment_id', 'arm', 'day'])
    .execute();
}
