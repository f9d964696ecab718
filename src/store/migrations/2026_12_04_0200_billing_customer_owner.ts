import type { Kysely } from 'kysely';
import { billingOwnerOf } from '../../domain/billing/erasure.js';
import { forEachRowPage } from '../row-pages.js';

/** Billing customers read per statement while their owner is written. */
const PAGE = 500;

/**
 * Whose each billing customer is (`billingOwnerOf`: the shop customer it is linked to, or its e-mail
 * when it is linked to none), indexed: an erasure or an export read and parsed every billing customer
 * of the shop to find a customer's, 100,000 of them on the thread every shop shares.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('billing_customers').addColumn('owner', 'text').execute();
  await db.schema
    .createIndex('billing_customers_owner')
    .on('billing_customers')
    .columns(['shop_id', 'owner'])
    .execute();
  await forEachRowPage<{ shop_id: number; id: number; document: string }>(
    db,
    'billing_customers',
    ['document'],
    PAGE,
    async (rows) => {
      for (const row of rows) {
        const owner = billingOwnerOf(JSON.parse(row.document) as Record<string, unknown>);
        if (owner === null) continue;
        await db
          .updateTable('billing_customers')
          .set({ owner })
          .where('shop_id', '=', row.shop_id)
          .where('id', '=', row.id)
          .execute();
      }
    },
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('billing_customers_owner').execute();
  await db.schema.alterTable('billing_customers').dropColumn('owner').execute();
}
