import { sql, type Kysely } from 'kysely';
import { rebuildServing } from '../kysely/product-serving.js';

/**
 * Each product's answer bytes and index fields, written with the product so a shop's load reads
 * them instead of parsing documents (§23), and filled here for the products already stored.
 * `bytea` is PostgreSQL's byte string; SQLite keeps the bytes as a blob under any type name.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('product_serving')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('product_id', 'bigint', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('body', sql`bytea`, (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('product_serving_pk', ['shop_id', 'product_id'])
    .execute();
  await rebuildServing(db);
}
