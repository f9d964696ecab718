import type { Transaction } from 'kysely';
import { json } from '../codec.js';
import type { Database } from '../schema.js';
import { onetimesOf } from './privacy-export.js';
import { billingCustomerOf, blankErased } from '../../domain/billing/erasure.js';

/** What a customer wrote into their subscriptions and one-time purchases, blanked (`blankErased`). */
async function blankFreeText(
  trx: Transaction<Database>,
  shopId: number,
  table: 'billing_subscriptions' | 'billing_onetimes',
  rows: readonly { id: number; document: string }[],
): Promise<void> {
  for (const row of rows) {
    const doc = json.fromDb<Record<string, unknown>>(row.document);
    blankErased(table === 'billing_subscriptions' ? 'subscriptions' : 'onetimes', doc);
    await trx
      .updateTable(table)
      .set({ document: json.toDb(doc) })
      .where('shop_id', '=', shopId)
      .where('id', '=', row.id)
      .execute();
  }
}

/** Blanks the personal fields of the shop customer's billing customers; returns their ids. */
export async function eraseBilling(
  trx: Transaction<Database>,
  shopId: number,
  customerId: number,
  emails: readonly string[],
): Promise<number[]> {
  const rows = await trx
    .selectFrom('billing_customers')
    .select(['id', 'document'])
    .where('shop_id', '=', shopId)
    .execute();
  const erased: number[] = [];
  for (const row of rows) {
    const doc = json.fromDb<Record<string, unknown>>(row.document);
    if (!billingCustomerOf(doc, customerId, emails)) continue;
    blankErased('customers', doc);
    await trx
      .updateTable('billing_customers')
      .set({ document: json.toDb(doc) })
      .where('shop_id', '=', shopId)
      .where('id', '=', row.id)
      .execute();
    const addresses = await trx
      .selectFrom('billing_addresses')
      .select(['id', 'document'])
      .where('shop_id', '=', shopId)
      .where('customer_id', '=', row.id)
      .execute();
    for (const address of addresses) {
      const addressDoc = json.fromDb<Record<string, unknown>>(address.document);
      blankErased('addresses', addressDoc);
      await trx
        .updateTable('billing_addresses')
        .set({ document: json.toDb(addressDoc) })
        .where('shop_id', '=', shopId)
        .where('id', '=', address.id)
        .execute();
    }
    const subscriptions = await trx
      .selectFrom('billing_subscriptions')
      .select(['id', 'document'])
      .where('shop_id', '=', shopId)
      .where('customer_id', '=', row.id)
      .execute();
    await blankFreeText(trx, shopId, 'billing_subscriptions', subscriptions);
    const onetimes = await onetimesOf(
      trx,
      shopId,
      addresses.map((a) => Number(a.id)),
    );
    await blankFreeText(trx, shopId, 'billing_onetimes', onetimes);
    // A reactivation campaign's claims of the customer (how often they took its offer).
    await trx.deleteFrom('campaign_claims').where('shop_id', '=', shopId).where('customer_id', '=', row.id).execute();
    erased.push(Number(row.id));
  }
  return erased;
}
