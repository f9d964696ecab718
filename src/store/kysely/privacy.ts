import { deletedInSlices, inSlices } from './in-slices.js';
import { type Kysely, sql } from 'kysely';
import { visitorsOf } from '../../domain/experiments/assign.js';
import { chunks } from '../codec.js';
import type { Database } from '../schema.js';
import type { Checkpoints } from '../checkpoints.js';
import { forgetStaged } from './erased-staging.js';
import { blankStoredBefore, eraseBilling } from './privacy-billing.js';
import { customerRecords, emailsOf } from './privacy-export.js';
import { sessionsAndCartsOf } from './customer-activity.js';
import { bumpDataVersion, nextCounter, nextCounterBlock } from './shops.js';
import { erasedDigests, recordErasedIdentities } from './erased-rows.js';
import { dropErasedFromExports, erasedRowIds, forgetTrackingKeysNaming } from './erasure-reach.js';
import { privacyRequestMethods, type PrivacyRequestStore } from './privacy-requests.js';

export type { PrivacyRequestRecord } from './privacy-requests.js';

/** Privacy requests, erasure and retention (docs/operations.md, "Privacy"). */
export interface PrivacyStore extends PrivacyRequestStore {
  /** Everything stored about the customer (`emails`: theirs as the request gives it), for a data request. */
  customerRecords(
    shopId: number,
    customerId: number,
    emails?: readonly string[],
    named?: NamedElsewhere,
  ): Promise<Record<string, unknown>>;
  /** The customers with this e-mail on file, now or before (any case): a request naming it must be theirs. */
  customersWithEmail(shopId: number, email: string): Promise<number[]>;
  /**
   * Erases a customer's personal data and behaviour; their order lines stay, anonymous. Events that
   * name them only by email (theirs as stored, or as `emails` give it) go too, with those sessions.
   */
  eraseCustomer(
    shopId: number,
    customerId: number,
    emails?: readonly string[],
    named?: NamedElsewhere,
  ): Promise<Erasure>;
  /** When each customer of the shop was last erased (epoch ms), by id. */
  erasedCustomers(shopId: number): Promise<Map<number, number>>;
  /** The shop's erased customers and the orders its erasures named, each with when (epoch ms), by id. */
  erasures(shopId: number): Promise<Erasures>;
  /** When each of these identity digests (`erasedIdentityDigest`) was erased. */
  erasedDigests(shopId: number, digests: readonly string[]): Promise<Map<string, number>>;
  /** Billing customers an erasure covers, told of after it: their documents are blanked as they come. */
  recordErasedBillingCustomers(shopId: number, erasedAt: ReadonlyMap<number, number>): Promise<void>;
  /** Deletes every event of the shop created before `before` (epoch ms). */
  deleteEventsBefore(shopId: number, before: number): Promise<number>;
  /** Deletes the shop and everything stored for it. */
  deleteShopData(shopId: number): Promise<void>;
}

/** An erasure: what it removed, and the sessions it found (what memory keeps of them goes too). */
export interface Erasure {
  counts: ErasureCounts;
  sessions: string[];
}

/**
 * What a privacy request names besides the customer's id and e-mail: the orders to redact or export
 * (a guest order carries no customer id of theirs).
 */
export interface NamedElsewhere {
  orderIds?: readonly number[];
}

/** An erased customer and their sessions, as every node must forget them. */
/** What a shop has erased, each id with when (epoch ms). */
export interface Erasures {
  customers: Map<number, number>;
  orders: Map<number, number>;
  /** The billing customers of erased customers (their ledger documents were blanked). */
  billingCustomers: Map<number, number>;
}

async function erasuresOf(db: Kysely<Database>, shopId: number): Promise<Erasures> {
  const rows = await db
    .selectFrom('erasures')
    .select(['subject', 'subject_id', 'erased_at'])
    .where('shop_id', '=', shopId)
    .execute();
  const erasures: Erasures = { customers: new Map(), orders: new Map(), billingCustomers: new Map() };
  const of = { customer: erasures.customers, order: erasures.orders, billing_customer: erasures.billingCustomers };
  for (const row of rows) of[row.subject].set(Number(row.subject_id), Number(row.erased_at));
  return erasures;
}

export interface ErasedCustomer {
  customerId: number;
  sessions: readonly string[];
}

/** What an erasure removed or anonymised. */
export interface ErasureCounts {
  customers: number;
  events: number;
  track_events: number;
  orders: number;
  billing_customers: number;
}

export interface PrivacyTables {
  privacy_requests: {
    shop_id: number;
    id: string;
    kind: string;
    customer_id: number | null;
    received_at: number;
    export: string | null;
    expires_at: number;
  };
  erasures: {
    shop_id: number;
    subject: 'customer' | 'order' | 'billing_customer';
    subject_id: number;
    erased_at: number;
  };
  erased_identities: { shop_id: number; digest: string; erased_at: number };
}

/**
 * Every table that holds a shop's rows, by the column naming the shop (the shop's own row goes last).
 * A Record over the tables `Database` declares, so a new table fails to compile until it is named here.
 */
const SHOP_TABLES: Record<Exclude<keyof Database, 'settings' | 'shops'>, true> = {
  api_keys: true,
  products: true,
  product_serving: true,
  shop_snapshots: true,
  variants: true,
  collections: true,
  collection_products: true,
  customers: true,
  markets: true,
  orders: true,
  order_lines: true,
  rulesets: true,
  widgets: true,
  events: true,
  event_counts: true,
  event_totals: true,
  billing_customers: true,
  billing_addresses: true,
  billing_subscriptions: true,
  billing_charges: true,
  billing_onetimes: true,
  billing_orders: true,
  campaigns: true,
  campaign_claims: true,
  campaign_counts: true,
  billing_providers: true,
  idempotency_keys: true,
  shop_webhooks: true,
  webhook_receipts: true,
  track_events: true,
  erasures: true,
  erased_identities: true,
  track_counted: true,
  source_days: true,
  order_attributions: true,
  experiments: true,
  experiment_visitors: true,
  experiment_days: true,
  platform_connections: true,
  platform_staging: true,
  privacy_requests: true,
  counters: true,
};

/** Deletes what the query names; how many rows went. */
const deleted = async (query: { executeTakeFirst(): Promise<{ numDeletedRows: bigint }> }) =>
  Number((await query.executeTakeFirst()).numDeletedRows);

/** Privacy requests, erasure and retention (docs/operations.md, "Privacy"). */
export function privacyMethods(db: Kysely<Database>, checkpoints?: Checkpoints): PrivacyStore {
  return {
    ...privacyRequestMethods(db),
    customerRecords: (shopId, customerId, emails = [], named = {}) =>
      customerRecords(db, shopId, customerId, emails, named),
    async customersWithEmail(shopId, email) {
      const wanted = email.trim().normalize('NFC').toLowerCase();
      // Found by text (an e-mail's `_` matches any character there), then compared whole: the address on
      // file now, or one it replaced (kept a line each, as the erasure reads them).
      const rows = await db
        .selectFrom('customers')
        .select(['id', 'email', 'former_emails'])
        .where('shop_id', '=', shopId)
        .where((eb) => eb.or([eb(sql<string>`lower(email)`, '=', wanted), eb('former_emails', 'like', `%${wanted}%`)]))
        .execute();
      return rows
        .filter((r) => r.email?.trim().toLowerCase() === wanted || r.former_emails?.split('\n').includes(wanted))
        .map((r) => Number(r.id));
    },
    async eraseCustomer(shopId, customerId, given = [], named = {}) {
      const erasure = await db.transaction().execute(async (trx) => {
        // The shop's event counters first, as every event write takes them before it checks for erasures:
        // a write either commits before this reads the customer's sessions, or waits and finds them erased.
        await nextCounterBlock(trx, shopId, 'events', 0);
        await nextCounterBlock(trx, shopId, 'track_events', 0);
        const emails = await emailsOf(trx, shopId, customerId, given);
        const { sessions, carts } = await sessionsAndCartsOf(trx, shopId, customerId, emails);
        const visitors = visitorsOf(customerId, sessions);
        const rowIds = await erasedRowIds(trx, shopId, { id: customerId, emails, sessions, carts });
        // By the ids read above, in the same transaction: the rows others' exports lose are the rows deleted.
        const byIds = async (table: 'events' | 'track_events', ids: ReadonlySet<number>) =>
          ids.size === 0
            ? 0
            : deletedInSlices([...ids], (slice) =>
                deleted(trx.deleteFrom(table).where('shop_id', '=', shopId).where('id', 'in', slice)),
              );
        const events = await byIds('events', rowIds.eventIds);
        const tracked = await byIds('track_events', rowIds.trackIds);
        for (const slice of inSlices(visitors)) {
          await trx
            .deleteFrom('experiment_visitors')
            .where('shop_id', '=', shopId)
            .where('visitor', 'in', slice)
            .execute();
          await trx.deleteFrom('track_counted').where('shop_id', '=', shopId).where('visitor', 'in', slice).execute();
        }
        const customers = await deleted(
          trx.deleteFrom('customers').where('shop_id', '=', shopId).where('id', '=', customerId),
        );
        // Order lines stay for sales figures; only the link to the person goes.
        const orders = Number(
          (
            await trx
              .updateTable('orders')
              .set({ customer_id: null })
              .where('shop_id', '=', shopId)
              .where('customer_id', '=', customerId)
              .executeTakeFirst()
          ).numUpdatedRows,
        );
        await trx
          .updateTable('order_lines')
          .set({ customer_id: null })
          .where('shop_id', '=', shopId)
          .where('customer_id', '=', customerId)
          .execute();
        const billing = await eraseBilling(trx, shopId, customerId, emails);
        await forgetStaged(trx, shopId, customerId, emails, named.orderIds ?? []);
        await forgetTrackingKeysNaming(trx, shopId, emails);
        // An earlier data request's export is personal data too: it goes with the rest.
        await trx
          .deleteFrom('privacy_requests')
          .where('shop_id', '=', shopId)
          .where('customer_id', '=', customerId)
          .where('kind', '=', 'data_request')
          .execute();
        // Another customer's export may hold what went: an event they shared a device or a cart with this one on.
        await dropErasedFromExports(trx, shopId, {
          customerId,
          emails,
          tokens: [...sessions, ...carts],
          ...rowIds,
          visitors: new Set(visitors),
          billingIds: new Set(billing),
        });
        const erasedAt = Date.now();
        const erased = [
          { subject: 'customer' as const, subject_id: customerId },
          ...(named.orderIds ?? []).map((id) => ({ subject: 'order' as const, subject_id: id })),
          ...billing.map((id) => ({ subject: 'billing_customer' as const, subject_id: id })),
        ];
        for (const rows of chunks(erased, 100))
          await trx
            .insertInto('erasures')
            .values(rows.map((row) => ({ shop_id: shopId, ...row, erased_at: erasedAt })))
            .onConflict((oc) => oc.columns(['shop_id', 'subject', 'subject_id']).doUpdateSet({ erased_at: erasedAt }))
            .execute();
        await recordErasedIdentities(trx, shopId, { email: emails, session: sessions, cart: carts }, erasedAt);
        await bumpDataVersion(trx, shopId);
        return {
          counts: { customers, events, track_events: tracked, orders, billing_customers: billing.length },
          sessions,
        };
      });
      // What the erasure deleted is still in the WAL's older frames: they go once no reader needs them.
      void checkpoints?.forgetOldFrames();
      return erasure;
    },

    async erasedCustomers(shopId) {
      return (await erasuresOf(db, shopId)).customers;
    },
    async erasures(shopId) {
      return erasuresOf(db, shopId);
    },
    erasedDigests: (shopId, digests) => erasedDigests(db, shopId, digests),
    async recordErasedBillingCustomers(shopId, erasedAt) {
      const rows = [...erasedAt].map(([id, at]) => ({
        shop_id: shopId,
        subject: 'billing_customer' as const,
        subject_id: id,
        erased_at: at,
      }));
      for (const part of chunks(rows, 4))
        await db
          .insertInto('erasures')
          .values(part)
          .onConflict((oc) => oc.columns(['shop_id', 'subject', 'subject_id']).doNothing())
          .execute();
      await blankStoredBefore(db, shopId, erasedAt);
    },

    async deleteEventsBefore(shopId, before) {
      const events = await db
        .deleteFrom('events')
        .where('shop_id', '=', shopId)
        .where('created_at', '<', before)
        .executeTakeFirst();
      const tracked = await db
        .deleteFrom('track_events')
        .where('shop_id', '=', shopId)
        .where('created_at', '<', before)
        .executeTakeFirst();
      return Number(events.numDeletedRows) + Number(tracked.numDeletedRows);
    },

    async deleteShopData(shopId) {
      await db.transaction().execute(async (trx) => {
        // The shop's row first: a load snapshot being stored meanwhile holds it for share (PostgreSQL),
        // so it either commits before this transaction deletes its row, or finds the shop gone.
        await bumpDataVersion(trx, shopId);
        for (const table of Object.keys(SHOP_TABLES))
          await trx
            .deleteFrom(table as 'products')
            .where('shop_id', '=', shopId)
            .execute();
        await trx.deleteFrom('shops').where('id', '=', shopId).execute();
        // Its keys are gone: nodes that poll the keys' version (no change bus) must drop them too.
        await nextCounter(trx, 0, 'keys');
      });
      void checkpoints?.forgetOldFrames();
    },
  };
}
