import type { Kysely } from 'kysely';
import { json } from '../codec.js';
import type { Database } from '../schema.js';

/** Everything stored about one customer, for a data request: their rows, orders with lines, behaviour and billing. */
export async function customerRecords(
  db: Kysely<Database>,
  shopId: number,
  customerId: number,
): Promise<Record<string, unknown>> {
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
