import type { NamedElsewhere } from './privacy.js';
import { selectedInSlices } from './in-slices.js';
import { eventRowsOf, sessionsAndCartsOf, trackingOf } from './customer-activity.js';
import type { Kysely } from 'kysely';
import { chunks, json } from '../codec.js';
import type { Database } from '../schema.js';
import { moreRecordsOf } from './privacy-records.js';
import { billingCustomersOf } from './privacy-billing.js';

/**
 * The customer's e-mails as stored (the current one and those it replaced) and as the request gave
 * them, lower-cased: an event may name them only so. An address they gave up that another customer
 * of the shop holds now is that customer's: what names it (their events, orders, billing customer)
 * is not the first customer's to export or erase.
 */
export async function emailsOf(
  db: Kysely<Database>,
  shopId: number,
  customerId: number,
  given: readonly string[],
): Promise<string[]> {
  const row = await db
    .selectFrom('customers')
    .select(['email', 'former_emails'])
    .where('shop_id', '=', shopId)
    .where('id', '=', customerId)
    .executeTakeFirst();
  const lower = (emails: readonly (string | null | undefined)[]) =>
    emails
      .filter((e): e is string => typeof e === 'string' && e.trim() !== '')
      .map((e) => e.trim().normalize('NFC').toLowerCase());
  const former = new Set(lower(row?.former_emails?.split('\n') ?? []));
  const own = new Set(lower([row?.email, ...given]));
  for (const email of own) former.delete(email);
  for (const taken of await heldByOthers(db, shopId, customerId, [...former])) former.delete(taken);
  return [...new Set([...own, ...former])];
}

/** Of these lower-cased e-mails, those another customer of the shop holds now. */
async function heldByOthers(db: Kysely<Database>, shopId: number, customerId: number, emails: readonly string[]) {
  const held: string[] = [];
  for (const part of chunks(emails, 1, 500)) {
    const rows = await db
      .selectFrom('customers')
      .select('email')
      .where('shop_id', '=', shopId)
      .where('id', '!=', customerId)
      .where((eb) => eb(eb.fn<string>('lower', ['email']), 'in', part))
      .execute();
    for (const r of rows) if (r.email) held.push(r.email.trim().toLowerCase());
  }
  return held;
}

/**
 * Everything stored about one customer, for a data request: their rows, orders with lines, and what
 * an erasure of them would remove (their events and tracking found as it finds them: by id, by email
 * and by the sessions those name; their billing customers with addresses and subscriptions).
 */
export async function customerRecords(
  db: Kysely<Database>,
  shopId: number,
  customerId: number,
  given: readonly string[] = [],
  named: NamedElsewhere = {},
): Promise<Record<string, unknown>> {
  const customer = await db
    .selectFrom('customers')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('id', '=', customerId)
    .executeTakeFirst();
  // Their orders, and those the request names (a guest order names its buyer only in its own body).
  const orders = await rowsOfCustomer(db, 'orders', shopId, customerId, named.orderIds);
  const lines = await rowsOfCustomer(db, 'order_lines', shopId, customerId, named.orderIds);
  const orderIds = orders.map((o) => Number(o.id));
  const attributions = await selectedInSlices(
    orderIds,
    (slice) =>
      slice.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('order_attributions')
            .selectAll()
            .where('shop_id', '=', shopId)
            .where('order_id', 'in', [...slice])
            .execute(),
    (row) => row, // slices of distinct orders: no row twice
  );
  const emails = await emailsOf(db, shopId, customerId, given);
  const { sessions, carts } = await sessionsAndCartsOf(db, shopId, customerId, emails);
  const events = await eventRowsOf(db, shopId, customerId, emails, sessions);
  const tracking = await trackingOf(db, shopId, customerId, sessions, carts);
  const billing = (await billingCustomersOf(db, shopId, customerId, emails)).map((r) => ({
    id: r.id,
    doc: json.fromDb<Record<string, unknown>>(r.document),
  }));
  const billingIds = billing.map((b) => b.id);
  const ofBilling = (table: 'billing_subscriptions' | 'billing_addresses' | 'billing_charges') =>
    billingIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom(table)
          .select('document')
          .where('shop_id', '=', shopId)
          .where('customer_id', 'in', billingIds)
          .execute();
  const addresses =
    billingIds.length === 0
      ? []
      : await db
          .selectFrom('billing_addresses')
          .select(['id', 'document'])
          .where('shop_id', '=', shopId)
          .where('customer_id', 'in', billingIds)
          .execute();
  const documents = (rows: { document: unknown }[]) =>
    rows.map((r) => json.fromDb<Record<string, unknown>>(r.document as string));
  const plain = <T extends object>(rows: T[]) =>
    rows.map((r) => readableRow(Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'shop_id'))));
  const more = await moreRecordsOf(db, shopId, { id: customerId, sessions, billingIds });
  return {
    customer: customer
      ? {
          id: Number(customer.id),
          email: customer.email,
          former_emails: customer.former_emails?.split('\n') ?? [],
          tags: json.fromDb<string[]>(customer.tags),
          updated_at: new Date(Number(customer.updated_at)).toISOString(),
        }
      : null,
    orders: plain(orders).map((o) => ({
      ...o,
      lines: plain(lines.filter((l) => Number(l.order_id) === Number(o.id))),
      // Which recommendation, click or experiment arm each line was credited to.
      attributions: plain(attributions.filter((a) => Number(a.order_id) === Number(o.id))),
    })),
    events: plain(events),
    tracking: plain(tracking),
    billing_customers: billing.map((b) => b.doc),
    billing_addresses: documents(addresses),
    billing_subscriptions: documents(await ofBilling('billing_subscriptions')),
    billing_charges: documents(await ofBilling('billing_charges')),
    billing_onetimes: documents(
      await onetimesOf(
        db,
        shopId,
        addresses.map((a) => Number(a.id)),
      ),
    ),
    // The billing provider's orders are its documents, as it wrote them.
    ...Object.fromEntries(
      Object.entries(more).map(([name, rows]) => [
        name,
        name === 'billing_orders' ? rows : rows.map((row) => readableRow(row as object)),
      ]),
    ),
  };
}

/** A stored time column: `created_at`, `received_at`, `at`. */
const TIME_COLUMN = /(?:^|_)at$/;

/**
 * A stored row as the customer reads it: times as the API writes them (ISO 8601) rather than the
 * epoch milliseconds they are stored as. Only the row's own columns: a webhook's body stays as the
 * platform sent it.
 */
function readableRow(row: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row))
    out[key] = TIME_COLUMN.test(key) && typeof value === 'number' ? new Date(value).toISOString() : value;
  return out;
}

/** The one-time purchases on these billing addresses (a one-time row names its address, not its customer). */
export function onetimesOf(db: Kysely<Database>, shopId: number, addressIds: readonly number[]) {
  if (addressIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('billing_onetimes')
    .select(['id', 'document'])
    .where('shop_id', '=', shopId)
    .where('address_id', 'in', [...addressIds])
    .execute();
}

/** Every row of one customer's in a table keyed by shop and customer, for the data-request export. */
async function rowsOfCustomer(
  db: Kysely<Database>,
  table: 'orders' | 'order_lines',
  shopId: number,
  customerId: number,
  orderIds: readonly number[] = [],
) {
  const id = table === 'orders' ? 'id' : 'order_id';
  return selectedInSlices(
    orderIds,
    (slice) =>
      db
        .selectFrom(table)
        .selectAll()
        .where('shop_id', '=', shopId)
        .where((eb) =>
          eb.or([eb('customer_id', '=', customerId), ...(slice.length > 0 ? [eb(id, 'in', [...slice])] : [])]),
        )
        .execute(),
    (row) =>
      table === 'orders'
        ? `${row.id}`
        : `${(row as { order_id: number }).order_id}:${(row as { line_no: number }).line_no}`,
  );
}
