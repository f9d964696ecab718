import type { Kysely } from 'kysely';

/**
 * The e-mails, browser sessions and cart tokens an erasure covered, as one-way digests with when
 * (`erasedIdentityDigest` in src/domain/erasure.ts). An event or tracked event naming the customer only by
 * one of them, dated before the erasure (a beacon sent late, one still in another node's write
 * buffer), is not stored (docs/operations.md, "Privacy"). Kept until the shop is deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('erased_identities')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('erased_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('erased_identities_pk', ['shop_id', 'digest'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('erased_identities').execute();
}
