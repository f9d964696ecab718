import type { Kysely } from 'kysely';

/** Rulesets: one JSON document per ruleset, integer ids per shop. Frozen. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rulesets')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rulesets_pk', ['shop_id', 'id'])
    .execute();
}
