import type { Kysely } from 'kysely';

/** Storefront webhooks, queued durably before they are applied. Frozen. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shop_webhooks')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('applied_at', 'bigint')
    .addColumn('outcome', 'text')
    .addPrimaryKeyConstraint('shop_webhooks_pk', ['shop_id', 'webhook_id'])
    .execute();
  await db.schema.createIndex('shop_webhooks_pending').on('shop_webhooks').columns(['applied_at', 'seq']).execute();
}
