import type { Kysely } from 'kysely';

/**
 * A shop's connection to its storefront platform (docs/api.md, "Connecting the platform"): the
 * access token sealed, the current sync, the webhook subscriptions it made; the lines of a bulk
 * export staged while they are joined to their parents; and the privacy requests received.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform_connections')
    .addColumn('shop_id', 'bigint', (c) => c.notNull().primaryKey())
    .addColumn('shop_domain', 'text', (c) => c.notNull())
    .addColumn('api_version', 'text', (c) => c.notNull())
    .addColumn('api_url', 'text', (c) => c.notNull())
    .addColumn('access_token', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('sync', 'text')
    .addColumn('refusals', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_reconciled_at', 'bigint')
    .addColumn('webhooks', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('platform_staging')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('gid', 'text', (c) => c.notNull())
    .addColumn('parent', 'text')
    .addColumn('line', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('platform_staging_pk', ['shop_id', 'seq'])
    .execute();
  // Serves both reads: parents in file order (parent null, seq after a mark) and the children of given parents.
  await db.schema
    .createIndex('platform_staging_parent')
    .on('platform_staging')
    .columns(['shop_id', 'parent', 'seq'])
    .execute();
  await db.schema
    .createTable('privacy_requests')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'bigint')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('export', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('privacy_requests_pk', ['shop_id', 'id'])
    .execute();
}
