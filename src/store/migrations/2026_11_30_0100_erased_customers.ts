import type { Kysely } from 'kysely';

/**
 * The customers a shop has erased, by id and time alone (no personal data): a change the platform
 * made before the erasure, delivered or read again after it (a webhook's retry, a reconciliation
 * of a customer the platform still holds), does not bring them back (docs/operations.md, "Privacy").
 * Kept until the shop is deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('erased_customers')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('customer_id', 'bigint', (c) => c.notNull())
    .addColumn('erased_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('erased_customers_pk', ['shop_id', 'customer_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('erased_customers').execute();
}
