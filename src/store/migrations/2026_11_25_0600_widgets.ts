import type { Kysely } from 'kysely';

/** Storefront widgets as data: each shop's widget designs, read by /widget.js. Frozen. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('widgets')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('widgets_pk', ['shop_id', 'id'])
    .execute();
}
