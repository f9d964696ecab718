import type { Kysely } from 'kysely';

/**
 * A platform privacy request (a customer's or a shop's redact, a data request) that failed on our side
 * (a database error, not a refused body) is tried again: how many times it was tried, and when it may
 * be tried next. Before, it was marked applied with an error and the platform, answered 200, never
 * sent it again (docs/operations.md, "Privacy").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('shop_webhooks')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('shop_webhooks').addColumn('retry_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('shop_webhooks').dropColumn('retry_at').execute();
  await db.schema.alterTable('shop_webhooks').dropColumn('attempts').execute();
}
