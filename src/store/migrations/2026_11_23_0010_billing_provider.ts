import type { Kysely } from 'kysely';

/**
 * A shop's billing provider (the ledger, or a remote one with its API token sealed), campaign
 * claim limits and the claims themselves. Frozen.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('billing_providers')
    .addColumn('shop_id', 'bigint', (c) => c.notNull().primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('base_url', 'text')
    .addColumn('api_version', 'text')
    .addColumn('api_token', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('campaigns')
    .addColumn('max_claims_per_customer', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('campaign_claims')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('campaign_id', 'bigint', (c) => c.notNull())
    .addColumn('customer_id', 'bigint', (c) => c.notNull())
    .addColumn('claims', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('campaign_claims_pk', ['shop_id', 'campaign_id', 'customer_id'])
    .execute();
}
