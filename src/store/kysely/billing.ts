import { sql, type Kysely, type Transaction } from 'kysely';
import type { BillingCharge, BillingSubscription, LedgerKind } from '../../domain/billing/types.js';
import { chunks, isUniqueViolation, json } from '../codec.js';
import type { Database } from '../schema.js';
import { finishKey, storedKey, takeKey } from './idempotency.js';
import { nextCounter } from './shops.js';
import { ConflictError } from '../../domain/errors.js';
import { billingOwnerOf } from '../../domain/billing/erasure.js';

/** The billing ledger (docs/billing.md): customers, addresses, subscriptions, charges, one-time purchases, orders. */
export interface BillingStore {
  /** Upserts ledger documents by id; with `onlyNewer`, an older updated_at never overwrites a newer one. */
  upsertLedger(shopId: number, kind: LedgerKind, docs: LedgerDoc[], options?: { onlyNewer?: boolean }): Promise<void>;
  getLedgerDoc<T>(
    shopId: number,
    table:
      | 'billing_customers'
      | 'billing_addresses'
      | 'billing_subscriptions'
      | 'billing_charges'
      | 'billing_onetimes'
      | 'billing_orders',
    id: number,
  ): Promise<T | null>;
  listCustomerSubscriptions(shopId: number, customerId: number): Promise<BillingSubscription[]>;
  /** The earliest QUEUED charge of an address scheduled on or after a date. */
  nextQueuedCharge(shopId: number, addressId: number, fromDate: string): Promise<BillingCharge | null>;
  /** Writes reactivated subscriptions (and the address's discount) in one transaction. */
  saveReactivation(shopId: number, write: { subscriptions: LedgerDoc[]; address: LedgerDoc | null }): Promise<void>;
  /**
   * Creates a one-time purchase atomically with its idempotency key: a second request with the
   * same key gets the stored outcome, or a conflict when its parameters differ.
   */
  createOnetime(
    shopId: number,
    idempotency: { key: string; hash: string } | null,
    build: (ids: { onetime: number; charge: number; order: number; subscription?: number }) => OnetimeWrite,
    /** Also reserve a new subscription id (above every stored one): the write creates a subscription. */
    options?: { subscription?: boolean },
  ): Promise<OnetimeWriteResult>;
  /** Applies a webhook's documents once per webhook id; false when the id was seen before. */
  applyWebhook(
    shopId: number,
    source: string,
    webhookId: string,
    kind: LedgerKind,
    docs: LedgerDoc[],
  ): Promise<boolean>;
}

/** A ledger document as stored: its id, owners and the time that orders competing writes. */
export interface LedgerDoc {
  id: number;
  customer_id?: number;
  address_id?: number;
  updated_at: string;
}

/** What a one-time purchase writes, built inside the transaction once ids are reserved. */
export interface OnetimeWrite {
  /** The outcome as the service describes it, stored as JSON with the idempotency key. */
  outcome: unknown;
  docs: {
    kind: 'billing_onetimes' | 'billing_charges' | 'billing_orders' | 'billing_subscriptions';
    doc: LedgerDoc & Record<string, unknown>;
  }[];
}

/**
 * What became of a keyed one-time write: done (the stored outcome JSON, `replayed` when an earlier
 * request with the key wrote it), or refused because the key holds other parameters or is in use.
 * Not the purchase's outcome (`OnetimeOutcome` of the billing services), which `outcome` encodes.
 */
export type OnetimeWriteResult =
  | { state: 'done'; outcome: string; replayed: boolean }
  | { state: 'conflict' }
  | { state: 'busy' };

export interface BillingTables {
  /** `owner`: whose the billing customer is (`billingOwnerOf`), for an erasure or an export to find it by. */
  billing_customers: DocRow & { owner: string | null };
  billing_addresses: DocRow & { customer_id: number };
  billing_subscriptions: DocRow & { customer_id: number; address_id: number };
  billing_charges: DocRow & { customer_id: number; address_id: number };
  billing_onetimes: DocRow & { address_id: number };
  billing_orders: DocRow & { charge_id: number };
  webhook_receipts: { shop_id: number; source: string; webhook_id: string; received_at: number };
}

/** A ledger row: the document as JSON beside the columns queries filter on. */
interface DocRow {
  shop_id: number;
  id: number;
  document: string;
  updated_at: number;
}

type Db = Kysely<Database> | Transaction<Database>;

const TABLE: Record<
  LedgerKind,
  'billing_customers' | 'billing_addresses' | 'billing_subscriptions' | 'billing_charges'
> = {
  customers: 'billing_customers',
  addresses: 'billing_addresses',
  subscriptions: 'billing_subscriptions',
  charges: 'billing_charges',
};

/** A subscription id above every stored one (imported subscriptions carry the provider's ids). */
async function nextSubscriptionId(trx: Transaction<Database>, shopId: number): Promise<number> {
  const next = await nextCounter(trx, shopId, 'billing_subscriptions');
  const row = await trx
    .selectFrom('billing_subscriptions')
    .select((eb) => eb.fn.max('id').as('max'))
    .where('shop_id', '=', shopId)
    .executeTakeFirst();
  const above = Number(row?.max ?? 0) + 1;
  if (above <= next) return next;
  // Past it, every new subscription would get the same rounded id and overwrite the one before.
  if (above > Number.MAX_SAFE_INTEGER)
    throw new ConflictError(
      `The shop's subscription ids reach ${Number.MAX_SAFE_INTEGER}: a new one has no id left above them.`,
    );
  await trx
    .updateTable('counters')
    .set({ value: above })
    .where('shop_id', '=', shopId)
    .where('name', '=', 'billing_subscriptions')
    .execute();
  return above;
}

/** Ledger timestamps carry no offset: read as UTC. */
const stamp = (text: string) => Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`) || 0;

async function upsert(
  db: Db,
  shopId: number,
  table: (typeof TABLE)[LedgerKind] | 'billing_onetimes' | 'billing_orders',
  docs: (LedgerDoc & Record<string, unknown>)[],
  onlyNewer: boolean,
): Promise<void> {
  for (const batch of chunks(docs, 6)) {
    const rows = batch.map((d) => ({
      shop_id: shopId,
      id: d.id,
      document: json.toDb(d),
      updated_at: stamp(d.updated_at),
      ...(table === 'billing_addresses' || table === 'billing_subscriptions' || table === 'billing_charges'
        ? { customer_id: d.customer_id ?? 0 }
        : {}),
      ...(table === 'billing_subscriptions' || table === 'billing_charges' || table === 'billing_onetimes'
        ? { address_id: d.address_id ?? 0 }
        : {}),
      ...(table === 'billing_orders' ? { charge_id: Number(d.charge_id ?? 0) } : {}),
      ...(table === 'billing_customers' ? { owner: billingOwnerOf(d) } : {}),
    }));
    await db
      .insertInto(table as 'billing_subscriptions')
      .values(rows as never)
      .onConflict((oc) => {
        const update = oc.columns(['shop_id', 'id']).doUpdateSet(
          (eb) =>
            ({
              document: eb.ref('excluded.document'),
              updated_at: eb.ref('excluded.updated_at'),
              ...(table === 'billing_addresses' || table === 'billing_subscriptions' || table === 'billing_charges'
                ? { customer_id: eb.ref('excluded.customer_id') }
                : {}),
              ...(table === 'billing_subscriptions' || table === 'billing_charges'
                ? { address_id: eb.ref('excluded.address_id') }
                : {}),
              ...(table === 'billing_customers' ? { owner: sql.ref('excluded.owner') } : {}),
            }) as never,
        );
        return onlyNewer ? update.where(sql.ref(`${table}.updated_at`), '<=', sql.ref('excluded.updated_at')) : update;
      })
      .execute();
  }
}

export function billingMethods(db: Kysely<Database>): BillingStore {
  return {
    async upsertLedger(shopId, kind, docs, options = {}) {
      if (docs.length === 0) return;
      await db
        .transaction()
        .execute((trx) =>
          upsert(trx, shopId, TABLE[kind], docs as (LedgerDoc & Record<string, unknown>)[], options.onlyNewer === true),
        );
    },
    async getLedgerDoc<T>(shopId: number, table: Parameters<BillingStore['getLedgerDoc']>[1], id: number) {
      const row = await db
        .selectFrom(table as 'billing_customers')
        .select('document')
        .where('shop_id', '=', shopId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? json.fromDb<T>(row.document) : null;
    },
    async listCustomerSubscriptions(shopId, customerId) {
      const rows = await db
        .selectFrom('billing_subscriptions')
        .select('document')
        .where('shop_id', '=', shopId)
        .where('customer_id', '=', customerId)
        .orderBy('id')
        .execute();
      return rows.map((r) => json.fromDb<BillingSubscription>(r.document));
    },
    async nextQueuedCharge(shopId, addressId, fromDate) {
      const rows = await db
        .selectFrom('billing_charges')
        .select('document')
        .where('shop_id', '=', shopId)
        .where('address_id', '=', addressId)
        .execute();
      const queued = rows
        .map((r) => json.fromDb<BillingCharge>(r.document))
        .filter((c) => c.status === 'QUEUED' && c.scheduled_at.slice(0, 10) >= fromDate)
        .sort((a, b) => stamp(a.scheduled_at) - stamp(b.scheduled_at) || a.id - b.id);
      return queued[0] ?? null;
    },
    async saveReactivation(shopId, write) {
      await db.transaction().execute(async (trx) => {
        await upsert(
          trx,
          shopId,
          'billing_subscriptions',
          write.subscriptions as (LedgerDoc & Record<string, unknown>)[],
          false,
        );
        if (write.address)
          await upsert(trx, shopId, 'billing_addresses', [write.address as LedgerDoc & Record<string, unknown>], false);
      });
    },
    async createOnetime(shopId, idempotency, build, options) {
      try {
        return await db.transaction().execute(async (trx) => {
          // Taken first: a concurrent request with the same key waits here, then finds the answer.
          if (idempotency) await takeKey(trx, shopId, idempotency.key, idempotency.hash);
          const ids = {
            onetime: await nextCounter(trx, shopId, 'onetimes'),
            charge: await nextCounter(trx, shopId, 'charges'),
            order: await nextCounter(trx, shopId, 'billing_orders'),
            ...(options?.subscription ? { subscription: await nextSubscriptionId(trx, shopId) } : {}),
          };
          const write = build(ids);
          for (const { kind, doc } of write.docs) await upsert(trx, shopId, kind, [doc], false);
          const outcome = JSON.stringify(write.outcome);
          if (idempotency) await finishKey(trx, shopId, idempotency.key, outcome);
          return { state: 'done', outcome, replayed: false };
        });
      } catch (error) {
        if (!idempotency || !isUniqueViolation(error)) throw error;
        const stored = await storedKey(db, shopId, idempotency.key, idempotency.hash);
        // A key another provider is still working on (the shop switched providers meanwhile).
        if (stored.state !== 'done') return stored.state === 'conflict' ? stored : { state: 'busy' };
        return { ...stored, replayed: true };
      }
    },
    async applyWebhook(shopId, source, webhookId, kind, docs) {
      try {
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('webhook_receipts')
            .values({ shop_id: shopId, source, webhook_id: webhookId, received_at: Date.now() })
            .execute();
          await upsert(trx, shopId, TABLE[kind], docs as (LedgerDoc & Record<string, unknown>)[], true);
        });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
  };
}
