import type { Kysely } from 'kysely';

/**
 * A shop's views and adds per handle summed over the days of its window before today, kept so a
 * load reads one row and today's counts instead of summing the month (1 ms of a browsed 150-product
 * shop's 2 ms load). `generation` moves whenever counts of a past day are written: a sum made
 * before that is never stored over it (src/store/kysely/event-totals.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_totals')
    .addColumn('shop_id', 'bigint', (c) => c.primaryKey())
    .addColumn('generation', 'bigint', (c) => c.notNull())
    .addColumn('since_day', 'integer')
    .addColumn('through_day', 'integer')
    .addColumn('body', 'text')
    .execute();
}
