import type { Kysely } from 'kysely';

/** The first schema: tenancy, keys and the catalog. Frozen: later changes come as new migrations. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('counters')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('counters_pk', ['shop_id', 'name'])
    .execute();

  await db.schema
    .createTable('shops')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('handle', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('signing_secret', 'text', (c) => c.notNull())
    .addColumn('public_url', 'text')
    .addColumn('webhook_secret', 'text')
    .addColumn('billing_webhook_secret', 'text')
    .addColumn('data_version', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_shop').on('api_keys').columns(['shop_id', 'kind']).execute();

  await db.schema
    .createTable('products')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('handle', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('products_pk', ['shop_id', 'id'])
    .execute();
  await db.schema.createIndex('products_handle').on('products').columns(['shop_id', 'handle']).execute();

  await db.schema
    .createTable('variants')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('product_id', 'bigint', (c) => c.notNull())
    .addColumn('inventory_quantity', 'bigint', (c) => c.notNull())
    .addColumn('old_inventory_quantity', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('variants_pk', ['shop_id', 'id'])
    .execute();
  await db.schema.createIndex('variants_product').on('variants').columns(['shop_id', 'product_id']).execute();

  await db.schema
    .createTable('collections')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('handle', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('collections_pk', ['shop_id', 'id'])
    .execute();

  await db.schema
    .createTable('collection_products')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('collection_id', 'bigint', (c) => c.notNull())
    .addColumn('product_id', 'bigint', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('collection_products_pk', ['shop_id', 'collection_id', 'product_id'])
    .execute();

  await db.schema
    .createTable('customers')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('customers_pk', ['shop_id', 'id'])
    .execute();

  await db.schema
    .createTable('markets')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('markets_pk', ['shop_id', 'id'])
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('customer_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('cancelled_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('orders_pk', ['shop_id', 'id'])
    .execute();

  await db.schema
    .createTable('order_lines')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('order_id', 'bigint', (c) => c.notNull())
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'bigint', (c) => c.notNull())
    .addColumn('variant_id', 'bigint')
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('price', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_lines_pk', ['shop_id', 'order_id', 'line_no'])
    .execute();
  await db.schema.createIndex('order_lines_time').on('order_lines').columns(['shop_id', 'created_at']).execute();
}
