import type { Kysely } from 'kysely';

/** The billing ledger, campaigns, idempotency keys and webhook receipts. Frozen. */
export async function up(db: Kysely<any>): Promise<void> {
  const doc = (name: string, extra: (t: any) => any = (t) => t) =>
    extra(
      db.schema
        .createTable(name)
        .addColumn('shop_id', 'bigint', (c) => c.notNull())
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('document', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull()),
    )
      .addPrimaryKeyConstraint(`${name}_pk`, ['shop_id', 'id'])
      .execute();

  await doc('billing_customers');
  await doc('billing_addresses', (t) => t.addColumn('customer_id', 'bigint', (c: any) => c.notNull()));
  await doc('billing_subscriptions', (t) =>
    t
      .addColumn('customer_id', 'bigint', (c: any) => c.notNull())
      .addColumn('address_id', 'bigint', (c: any) => c.notNull()),
  );
  await doc('billing_charges', (t) =>
    t
      .addColumn('customer_id', 'bigint', (c: any) => c.notNull())
      .addColumn('address_id', 'bigint', (c: any) => c.notNull()),
  );
  await doc('billing_onetimes', (t) => t.addColumn('address_id', 'bigint', (c: any) => c.notNull()));
  await doc('billing_orders', (t) => t.addColumn('charge_id', 'bigint', (c: any) => c.notNull()));
  await db.schema
    .createIndex('billing_subscriptions_customer')
    .on('billing_subscriptions')
    .columns(['shop_id', 'customer_id'])
    .execute();
  await db.schema
    .createIndex('billing_charges_address')
    .on('billing_charges')
    .columns(['shop_id', 'address_id'])
    .execute();

  await db.schema
    .createTable('campaigns')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('discount_code', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('campaigns_pk', ['shop_id', 'id'])
    .execute();
  await db.schema
    .createTable('campaign_counts')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('campaign_id', 'bigint', (c) => c.notNull())
    .addColumn('tk', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('campaign_counts_pk', ['shop_id', 'campaign_id', 'tk', 'kind'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['shop_id', 'key'])
    .execute();

  await db.schema
    .createTable('webhook_receipts')
    .addColumn('shop_id', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_receipts_pk', ['shop_id', 'source', 'webhook_id'])
    .execute();
}
