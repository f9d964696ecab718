import type { Transaction } from 'kysely';
import { json } from '../codec.js';
import type { Database } from '../schema.js';
import { onetimesOf } from './privacy-export.js';

/** The personal fields of a billing customer and of its addresses, blanked on erasure. */
const CUSTOMER_FIELDS = [
  'email',
  'first_name',
  'last_name',
  'billing_address1',
  'billing_address2',
  'billing_zip',
  'billing_city',
];
const MORE_CUSTOMER_FIELDS = ['billing_company', 'billing_province', 'billing_phone', 'shop_customer_id', 'hash'];
const ADDRESS_FIELDS = [
  'first_name',
  'last_name',
  'address1',
  'address2',
  'city',
  'zip',
  'phone',
  'company',
  'province',
];

const blank = (doc: Record<string, unknown>, fields: string[]) => {
  for (const field of fields) if (typeof doc[field] === 'string') doc[field] = '';
};

/**
 * What a customer wrote into their subscriptions and one-time purchases: why they cancelled, and
 * the line properties (a gift note, an engraving). Property names stay, and Rebound's own
 * (`_rebound_source`), which name a widget, not a person.
 */
async function blankFreeText(
  trx: Transaction<Database>,
  shopId: number,
  table: 'billing_subscriptions' | 'billing_onetimes',
  rows: readonly { id: number; document: string }[],
): Promise<void> {
  for (const row of rows) {
    const doc = json.fromDb<Record<string, unknown>>(row.document);
    if (typeof doc.cancellation_reason_comments === 'string') doc.cancellation_reason_comments = null;
    if (Array.isArray(doc.properties))
      doc.properties = doc.properties.map((p: { name?: unknown; value?: unknown }) =>
        typeof p?.name === 'string' && p.name.startsWith('_rebound') ? p : { ...p, value: '' },
      );
    await trx
      .updateTable(table)
      .set({ document: json.toDb(doc) })
      .where('shop_id', '=', shopId)
      .where('id', '=', row.id)
      .execute();
  }
}

/** Blanks the personal fields of the shop customer's billing customers; returns how many there were. */
export async function eraseBilling(trx: Transaction<Database>, shopId: number, customerId: number): Promise<number> {
  const rows = await trx
    .selectFrom('billing_customers')
    .select(['id', 'document'])
    .where('shop_id', '=', shopId)
    .execute();
  let erased = 0;
  for (const row of rows) {
    const doc = json.fromDb<Record<string, unknown>>(row.document);
    if (String(doc.shop_customer_id ?? '') !== String(customerId)) continue;
    blank(doc, [...CUSTOMER_FIELDS, ...MORE_CUSTOMER_FIELDS]);
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
      blank(addressDoc, ADDRESS_FIELDS);
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
    erased++;
  }
  return erased;
}
