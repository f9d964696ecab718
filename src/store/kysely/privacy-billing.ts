import type { Kysely, Transaction } from 'kysely';
import { chunks, json } from '../codec.js';
import type { Database } from '../schema.js';
import { onetimesOf } from './privacy-export.js';
import {
  billingOwnerKeys,
  billingOwnerOf,
  blankErased,
  blankErasedBefore,
  type ErasedKind,
} from '../../domain/billing/erasure.js';

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

/**
 * The shop customer's billing customers (`billingOwnerKeys`), found by the indexed owner column, not by
 * reading every billing customer of the shop: a shop of 100,000 read them all at each export and erasure.
 */
export async function billingCustomersOf(
  db: Kysely<Database> | Transaction<Database>,
  shopId: number,
  customerId: number,
  emails: readonly string[],
): Promise<{ id: number; document: string }[]> {
  const rows: { id: number; document: string }[] = [];
  for (const keys of chunks(billingOwnerKeys(customerId, emails), 1, 500)) {
    const part = await db
      .selectFrom('billing_customers')
      .select(['id', 'document'])
      .where('shop_id', '=', shopId)
      .where('owner', 'in', keys)
      .execute();
    for (const row of part) rows.push({ id: Number(row.id), document: row.document });
  }
  return rows.sort((a, b) => a.id - b.id);
}

/** Blanks the personal fields of the shop customer's billing customers; returns their ids. */
export async function eraseBilling(
  trx: Transaction<Database>,
  shopId: number,
  customerId: number,
  emails: readonly string[],
): Promise<number[]> {
  const rows = await billingCustomersOf(trx, shopId, customerId, emails);
  const erased: number[] = [];
  for (const row of rows) {
    const doc = json.fromDb<Record<string, unknown>>(row.document);
    blankErased('customers', doc);
    await trx
      .updateTable('billing_customers')
      .set({ document: json.toDb(doc), owner: billingOwnerOf(doc) })
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

/**
 * The stored documents of billing customers an erasure covers though it never saw them (the provider
 * told of the customer only after it): their addresses, subscriptions and one-time purchases dated
 * before the erasure, stored before the customer was, are blanked as the erasure would have.
 */
export async function blankStoredBefore(
  db: Kysely<Database>,
  shopId: number,
  erasedAt: ReadonlyMap<number, number>,
): Promise<void> {
  const ids = [...erasedAt.keys()];
  if (ids.length === 0) return;
  const rowsOf = (table: 'billing_addresses' | 'billing_subscriptions') =>
    db
      .selectFrom(table)
      .select(['id', 'document'])
      .where('shop_id', '=', shopId)
      .where('customer_id', 'in', ids)
      .execute();
  const addresses = await rowsOf('billing_addresses');
  await rewriteBlanked(db, shopId, 'billing_addresses', 'addresses', addresses, erasedAt);
  await rewriteBlanked(
    db,
    shopId,
    'billing_subscriptions',
    'subscriptions',
    await rowsOf('billing_subscriptions'),
    erasedAt,
  );
  const onetimes = await onetimesOf(
    db,
    shopId,
    addresses.map((a) => Number(a.id)),
  );
  await rewriteBlanked(db, shopId, 'billing_onetimes', 'onetimes', onetimes, erasedAt);
}

async function rewriteBlanked(
  db: Kysely<Database>,
  shopId: number,
  table: 'billing_addresses' | 'billing_subscriptions' | 'billing_onetimes',
  kind: ErasedKind,
  rows: readonly { id: number; document: string }[],
  erasedAt: ReadonlyMap<number, number>,
): Promise<void> {
  for (const row of rows) {
    const doc = json.fromDb<{ id: number; customer_id?: number; updated_at: string }>(row.document);
    if (blankErasedBefore(kind, [doc], erasedAt) === 0) continue;
    await db
      .updateTable(table)
      .set({ document: json.toDb(doc) })
      .where('shop_id', '=', shopId)
      .where('id', '=', row.id)
      .execute();
  }
}
