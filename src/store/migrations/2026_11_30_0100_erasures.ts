import type { Kysely } from 'kysely';

/**
 * What a shop has erased, by id and time alone (no personal data): its customers (`subject`
 * 'customer'), and the orders a platform's erasure names (`orders_to_redact`: a guest order names
 * its buyer only in its own body). A change made before an erasure, delivered or read again after it
 * (a webhook's retry, a reconciliation of a customer the platform still holds), does not bring back
 * what it erased (docs/operations.md, "Privacy"). Kept until the shop is deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('erasures')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'bigint', (c) => c.notNull())
    .addColumn('erased_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('erasures_pk', ['shop_id', 'subject', 'subject_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('erasures').execute();
}
