import type { Kysely, Transaction } from 'kysely';
import { json } from '../codec.js';
import type { PlatformStore, PrivacyRequestRecord } from '../platform-store.js';
import type { Database } from '../schema.js';
import { bumpDataVersion } from './shops.js';

type Methods = Pick<
  PlatformStore,
  | 'putPrivacyRequest'
  | 'listPrivacyRequests'
  | 'deleteExpiredPrivacyRequests'
  | 'eraseCustomer'
  | 'deleteEventsBefore'
  | 'deleteShopData'
>;

/** Every table that holds a shop's rows, by the column naming the shop. */
const SHOP_TABLES = [
  'api_keys',
  'products',
  'product_serving',
  'variants',
  'collections',
  'collection_products',
  'customers',
  'markets',
  'orders',
  'order_lines',
  'rulesets',
  'events',
  'event_counts',
  'billing_customers',
  'billing_addresses',
  'billing_subscriptions',
  'billing_charges',
  'billing_onetimes',
  'billing_orders',
  'campaigns',
  'campaign_claims',
  'campaign_counts',
  'billing_providers',
  'idempotency_keys',
  'shop_webhooks',
  'webhook_receipts',
  'track_events',
  'track_counted',
  'source_days',
  'order_attributions',
  'experiments',
  'experiment_visitors',
  'experiment_days',
  'platform_connections',
  'platform_staging',
  'privacy_requests',
  'counters',
] as const;

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

/** The sessions a customer browsed in: their events and tracking name both the customer and the session. */
async function sessionsOf(trx: Transaction<Database>, shopId: number, customerId: number): Promise<string[]> {
  const events = await trx
    .selectFrom('events')
    .select('uuid')
    .distinct()
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .where('uuid', 'is not', null)
    .execute();
  const tracked = await trx
    .selectFrom('track_events')
    .select('uuid')
    .distinct()
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .where('uuid', 'is not', null)
    .execute();
  return [...new Set([...events, ...tracked].map((r) => r.uuid!))];
}

async function eraseBilling(trx: Transaction<Database>, shopId: number, customerId: number): Promise<number> {
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
    erased++;
  }
  return erased;
}

/** Privacy requests, erasure and retention (docs/operations.md, "Privacy"). */
export function privacyMethods(db: Kysely<Database>): Methods {
  return {
    async putPrivacyRequest(record: PrivacyRequestRecord) {
      const { shop_id: _s, id: _i, ...update } = record;
      await db
        .insertInto('privacy_requests')
        .values(record)
        .onConflict((oc) => oc.columns(['shop_id', 'id']).doUpdateSet(update))
        .execute();
    },
    async listPrivacyRequests(shopId, now) {
      const rows = await db
        .selectFrom('privacy_requests')
        .selectAll()
        .where('shop_id', '=', shopId)
        .where('expires_at', '>', now)
        .orderBy('received_at', 'desc')
        .execute();
      return rows.map((r) => ({
        ...r,
        shop_id: Number(r.shop_id),
        kind: r.kind as PrivacyRequestRecord['kind'],
        customer_id: r.customer_id === null ? null : Number(r.customer_id),
        received_at: Number(r.received_at),
        expires_at: Number(r.expires_at),
      }));
    },
    async deleteExpiredPrivacyRequests(now) {
      const result = await db.deleteFrom('privacy_requests').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async eraseCustomer(shopId, customerId) {
      return db.transaction().execute(async (trx) => {
        const sessions = await sessionsOf(trx, shopId, customerId);
        const visitors = [`c:${customerId}`, ...sessions.map((s) => `u:${s.toLowerCase()}`)];
        const bySessions = <T extends 'events' | 'track_events'>(table: T) => {
          const query = trx.deleteFrom(table as 'events').where('shop_id', '=', shopId);
          return query.where((eb) =>
            sessions.length > 0
              ? eb.or([eb('customer_id', '=', customerId), eb('uuid', 'in', sessions)])
              : eb('customer_id', '=', customerId),
          );
        };
        const events = Number((await bySessions('events').executeTakeFirst()).numDeletedRows);
        const tracked = Number((await bySessions('track_events').executeTakeFirst()).numDeletedRows);
        await trx
          .deleteFrom('experiment_visitors')
          .where('shop_id', '=', shopId)
          .where('visitor', 'in', visitors)
          .execute();
        await trx.deleteFrom('track_counted').where('shop_id', '=', shopId).where('visitor', 'in', visitors).execute();
        const customers = Number(
          (
            await trx
              .deleteFrom('customers')
              .where('shop_id', '=', shopId)
              .where('id', '=', customerId)
              .executeTakeFirst()
          ).numDeletedRows,
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
        const billing = await eraseBilling(trx, shopId, customerId);
        // Applied webhooks are not needed again; those that named the customer lose their body.
        await trx
          .updateTable('shop_webhooks')
          .set({ payload: '{}' })
          .where('shop_id', '=', shopId)
          .where('applied_at', 'is not', null)
          .where('payload', 'like', `%${customerId}%`)
          .execute();
        // An earlier data request's export is personal data too: it goes with the rest.
        await trx
          .deleteFrom('privacy_requests')
          .where('shop_id', '=', shopId)
          .where('customer_id', '=', customerId)
          .where('kind', '=', 'data_request')
          .execute();
        await bumpDataVersion(trx, shopId);
        return { customers, events, track_events: tracked, orders, billing_customers: billing };
      });
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
        for (const table of SHOP_TABLES)
          await trx
            .deleteFrom(table as 'products')
            .where('shop_id', '=', shopId)
            .execute();
        await trx.deleteFrom('shops').where('id', '=', shopId).execute();
      });
    },
  };
}

/** A customer's rows, read for a data request or removed when the platform deleted the customer. */
export function customerRowMethods(db: Kysely<Database>): Pick<PlatformStore, 'customerRecords'> {
  return {
    async customerRecords(shopId, customerId) {
      const customer = await db
        .selectFrom('customers')
        .selectAll()
        .where('shop_id', '=', shopId)
        .where('id', '=', customerId)
        .executeTakeFirst();
      const orders = await rowsOfCustomer(db, 'orders', shopId, customerId);
      const lines = await rowsOfCustomer(db, 'order_lines', shopId, customerId);
      const events = await rowsOfCustomer(db, 'events', shopId, customerId);
      const tracking = await rowsOfCustomer(db, 'track_events', shopId, customerId);
      const billing = (
        await db.selectFrom('billing_customers').select(['id', 'document']).where('shop_id', '=', shopId).execute()
      )
        .map((r) => ({ id: Number(r.id), doc: json.fromDb<Record<string, unknown>>(r.document) }))
        .filter((r) => String(r.doc.shop_customer_id ?? '') === String(customerId));
      const billingIds = billing.map((b) => b.id);
      const subscriptions =
        billingIds.length === 0
          ? []
          : await db
              .selectFrom('billing_subscriptions')
              .select('document')
              .where('shop_id', '=', shopId)
              .where('customer_id', 'in', billingIds)
              .execute();
      const plain = <T extends object>(rows: T[]) =>
        rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'shop_id')));
      return {
        customer: customer
          ? { id: Number(customer.id), email: customer.email, tags: json.fromDb<string[]>(customer.tags) }
          : null,
        orders: plain(orders).map((o) => ({
          ...o,
          lines: plain(lines.filter((l) => Number(l.order_id) === Number(o.id))),
        })),
        events: plain(events),
        tracking: plain(tracking),
        billing_customers: billing.map((b) => b.doc),
        billing_subscriptions: subscriptions.map((s) => json.fromDb<Record<string, unknown>>(s.document)),
      };
    },
  };
}

/** Every row of one customer's in a table keyed by shop and customer, for the data-request export. */
function rowsOfCustomer(
  db: Kysely<Database>,
  table: 'orders' | 'order_lines' | 'events' | 'track_events',
  shopId: number,
  customerId: number,
) {
  return db.selectFrom(table).selectAll().where('shop_id', '=', shopId).where('customer_id', '=', customerId).execute();
}
