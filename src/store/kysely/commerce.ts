import type SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { Customer, Order, OrderLine } from '../../domain/catalog/collection.js';
import type { Market } from '../../domain/catalog/market.js';
import type { Checkpoints } from '../checkpoints.js';
import { chunks, json } from '../codec.js';
import type { Database } from '../schema.js';
import { importInSlices, ORDER_SLICE, orderRows, writeOrders } from './imports.js';
import { bumpDataVersion } from './shops.js';
import { customersReader } from './load-reads.js';
import { emailsOf } from './privacy-export.js';
import { soldLinesReader } from './sold-lines.js';

/** Customers, markets and orders with their lines, as the shop's platform sends them. */
export interface CommerceStore {
  upsertCustomers(shopId: number, customers: Customer[]): Promise<void>;
  /** The shop's customers in id order; with `page`, those after `afterId`, at most `limit`. */
  listCustomers(shopId: number, page?: { afterId: number; limit: number }): Promise<Customer[]>;
  /** Removes a customer row the platform deleted (their orders and behaviour stay). */
  deleteCustomer(shopId: number, customerId: number): Promise<boolean>;

  upsertMarkets(shopId: number, markets: Market[]): Promise<void>;
  listMarkets(shopId: number): Promise<Market[]>;

  /** Orders are replaced whole by id (their lines too). */
  upsertOrders(shopId: number, orders: Order[]): Promise<void>;
  /** Lines of orders not cancelled, created at or after `since` (epoch ms), oldest first. */
  listOrderLines(shopId: number, since: number): Promise<OrderLine[]>;
  /** The same lines since 0 with only what the sales figures fold (a shop's load). */
  listSoldLines(shopId: number): Promise<SoldLine[]>;
  /**
   * Units sold of each product in lines of orders not cancelled created from `since` to `until` (epoch
   * ms, both included), lines of a positive quantity only: summed by the database, so a report over a
   * large shop's months reads a row a product, not one a line.
   */
  unitsSoldBetween(shopId: number, since: number, until: number): Promise<{ productId: number; units: number }[]>;
  countOrders(shopId: number): Promise<number>;
  /**
   * Distinct products of the lines of these orders (a thank-you page's input products), in order and
   * line order; with `customerId`, of that customer's orders only.
   */
  orderProductIds(shopId: number, orderIds: number[], customerId?: number): Promise<number[]>;
}

/** An order line as the sales figures read it: no variant or price, named as trending's sales. */
export interface SoldLine {
  orderId: number;
  productId: number;
  quantity: number;
  customerId: number | null;
  /** The order's creation, epoch ms. */
  at: number;
}

export interface CommerceTables {
  customers: {
    shop_id: number;
    id: number;
    email: string | null;
    tags: string; // JSON array
    updated_at: number;
    /** The e-mails the customer had before, lower-cased, one a line (FORMER_EMAILS); null when none. */
    former_emails: string | null;
  };
  markets: {
    shop_id: number;
    id: number;
    position: number;
    document: string; // JSON of the normalized market
    updated_at: number;
  };
  orders: {
    shop_id: number;
    id: number;
    customer_id: number | null;
    created_at: number;
    cancelled_at: number | null;
    updated_at: number;
  };
  order_lines: {
    shop_id: number;
    order_id: number;
    line_no: number;
    product_id: number;
    variant_id: number | null;
    quantity: number;
    price: string;
    customer_id: number | null;
    created_at: number;
    /** 1 when the order is cancelled (kept with the order's, which replaces its lines whole). */
    cancelled: number;
  };
}

/** Customers written per slice of an import, before a turn of the event loop. */
const CUSTOMER_SLICE = 2000;

/**
 * A customer's e-mails before the current one, kept when it changes: events sent before they signed
 * in name them by a former e-mail alone, and an erasure finds those by it. At most about 4 KB of
 * them (the oldest are kept: a customer changing e-mail without end must not grow a row without end).
 */
const FORMER_EMAILS = sql<string | null>`case
  when customers.email is null then customers.former_emails
  when lower(customers.email) = lower(coalesce(excluded.email, '')) then customers.former_emails
  when customers.former_emails is null then lower(customers.email)
  when length(customers.former_emails) > 4096 then customers.former_emails
  else customers.former_emails || ${'\n'} || lower(customers.email)
end`;

export function commerceMethods(
  db: Kysely<Database>,
  sqlite?: SQLite.Database,
  checkpoints?: Checkpoints,
): CommerceStore {
  return {
    async upsertCustomers(shopId, customers) {
      const now = Date.now();
      await importInSlices(db, checkpoints, customers, CUSTOMER_SLICE, async (trx, slice, last) => {
        for (const batch of chunks(slice, 5)) {
          await trx
            .insertInto('customers')
            .values(
              batch.map((c) => ({
                shop_id: shopId,
                id: c.id,
                email: c.email,
                tags: json.toDb(c.tags),
                updated_at: now,
              })),
            )
            .onConflict((oc) =>
              oc.columns(['shop_id', 'id']).doUpdateSet((eb) => ({
                email: eb.ref('excluded.email'),
                tags: eb.ref('excluded.tags'),
                updated_at: eb.ref('excluded.updated_at'),
                former_emails: FORMER_EMAILS,
              })),
            )
            .execute();
        }
        if (last) await bumpDataVersion(trx, shopId);
      });
    },
    listCustomers: customersReader(db, sqlite),

    async deleteCustomer(shopId, customerId) {
      const result = await db.transaction().execute(async (trx) => {
        // The row goes, and the e-mails in it: the events that name the customer by e-mail alone are
        // theirs by id from now on, so that the erasure the platform sends after a deletion finds them.
        const emails = await emailsOf(trx, shopId, customerId, []);
        if (emails.length > 0)
          await trx
            .updateTable('events')
            .set({ customer_id: customerId })
            .where('shop_id', '=', shopId)
            .where('customer_id', 'is', null)
            .where(sql<string>`lower(subject_email)`, 'in', emails)
            .execute();
        const deleted = await trx
          .deleteFrom('customers')
          .where('shop_id', '=', shopId)
          .where('id', '=', customerId)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) > 0) await bumpDataVersion(trx, shopId);
        return Number(deleted.numDeletedRows) > 0;
      });
      return result;
    },
    async upsertMarkets(shopId, markets) {
      const now = Date.now();
      // A market a slice: its document (up to every variant's fixed price) is serialized on this thread.
      await importInSlices(db, checkpoints, markets, 1, async (trx, slice, last) => {
        for (const m of slice) {
          const row = { shop_id: shopId, id: m.id, position: m.position, document: json.toDb(m), updated_at: now };
          await trx
            .insertInto('markets')
            .values(row)
            .onConflict((oc) =>
              oc
                .columns(['shop_id', 'id'])
                .doUpdateSet({ position: row.position, document: row.document, updated_at: now }),
            )
            .execute();
        }
        if (last) await bumpDataVersion(trx, shopId);
      });
    },
    async listMarkets(shopId) {
      const rows = await db
        .selectFrom('markets')
        .select('document')
        .where('shop_id', '=', shopId)
        .orderBy('position')
        .orderBy('id')
        .execute();
      return rows.map((r) => json.fromDb<Market>(r.document));
    },

    async upsertOrders(shopId, orders) {
      await importInSlices(
        db,
        checkpoints,
        orders,
        ORDER_SLICE,
        async (trx, slice, last) => {
          await writeOrders(trx, shopId, slice);
          if (last) await bumpDataVersion(trx, shopId);
        },
        orderRows,
      );
    },
    async orderProductIds(shopId, orderIds, customerId) {
      if (orderIds.length === 0) return [];
      const rows = await db
        .selectFrom('order_lines')
        .select(['order_id', 'product_id'])
        .where('shop_id', '=', shopId)
        .where('order_id', 'in', orderIds)
        .$if(customerId !== undefined, (q) => q.where('customer_id', '=', customerId!))
        .orderBy('order_id')
        .orderBy('line_no')
        .execute();
      const position = new Map(orderIds.map((id, index) => [id, index]));
      rows.sort((a, b) => position.get(Number(a.order_id))! - position.get(Number(b.order_id))!);
      return [...new Set(rows.map((r) => Number(r.product_id)))];
    },
    async unitsSoldBetween(shopId, since, until) {
      const rows = await db
        .selectFrom('order_lines')
        .select(['product_id', (eb) => eb.fn.sum<number | string>('quantity').as('units')])
        .where('shop_id', '=', shopId)
        .where('cancelled', '=', 0)
        .where('created_at', '>=', since)
        .where('created_at', '<=', until)
        .where('quantity', '>', 0)
        .groupBy('product_id')
        .execute();
      return rows.map((r) => ({ productId: Number(r.product_id), units: Number(r.units) }));
    },
    async listOrderLines(shopId, since) {
      const rows = await db
        .selectFrom('order_lines')
        .select(['order_id', 'product_id', 'variant_id', 'quantity', 'price', 'customer_id', 'created_at'])
        .where('shop_id', '=', shopId)
        .where('cancelled', '=', 0)
        .where('created_at', '>=', since)
        .orderBy('created_at')
        .orderBy('order_id')
        .orderBy('line_no')
        .execute();
      return rows.map((r) => ({
        order_id: Number(r.order_id),
        product_id: Number(r.product_id),
        variant_id: r.variant_id === null ? null : Number(r.variant_id),
        quantity: Number(r.quantity),
        price: r.price,
        customer_id: r.customer_id === null ? null : Number(r.customer_id),
        created_at: Number(r.created_at),
      }));
    },
    listSoldLines: soldLinesReader(db, sqlite),
    async countOrders(shopId) {
      const row = await db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('shop_id', '=', shopId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
