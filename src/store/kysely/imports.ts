import type { Kysely } from 'kysely';
import type { Order } from '../../domain/catalog/collection.js';
import type { Product } from '../../domain/catalog/product.js';
import { nextTurn } from '../../indexes/turns.js';
import type { Checkpoints } from '../checkpoints.js';
import { chunks, json, time } from '../codec.js';
import type { Database } from '../schema.js';
import { writeServing } from './product-serving.js';

/**
 * Products written per slice of an import: about 25 ms of the event loop's thread (the rows, their
 * variants, their answer bytes serialized and deflated). 20,000 products in one stretch kept every
 * other shop of the process waiting 3–4 s.
 */
export const PRODUCT_SLICE = 100;

/**
 * A product's share of a PRODUCT_SLICE: one, and one more for each 8 KB of its text (tags and
 * description) and each 16 variants. A product at the platform's bounds (250 tags of 110 characters)
 * costs about four typical ones to write, and a slice of 100 of them held every shop 90–100 ms.
 */
export const productWeight = (product: Pick<Product, 'tags' | 'body_html' | 'variants'>): number =>
  1 + Math.floor((product.tags.length + (product.body_html?.length ?? 0)) / 8192 + product.variants.length / 16);

/**
 * Rows written per slice of an order import: an order is one, and each of its lines one more. 500 orders
 * a slice whatever their lines made 30 orders of 10,000 lines one stretch of 2.7 s of every shop's thread.
 */
export const ORDER_SLICE = 2_000;

/** An order's rows in an import: its own and its lines'. */
export const orderRows = (order: { lines: readonly unknown[] }): number => 1 + order.lines.length;

/**
 * Consecutive slices of `rows` whose weights add up to at most `size` each (a row heavier than that
 * alone in its slice): the unit of work between two turns of the event loop.
 */
export function slicesOf<T>(rows: readonly T[], size: number, weight: (row: T) => number = () => 1): T[][] {
  const slices: T[][] = [];
  let current: T[] = [];
  let held = 0;
  for (const row of rows) {
    const w = weight(row);
    if (current.length > 0 && held + w > size) {
      slices.push(current);
      current = [];
      held = 0;
    }
    current.push(row);
    held += w;
  }
  if (current.length > 0) slices.push(current);
  return slices;
}

/**
 * An import written in slices within one transaction, a turn of the event loop after each: all of
 * it is written or none, and the shops this process serves from memory answer meanwhile
 * (docs/scaling.md, "Imports beside serving"). On SQLite it is a large write, its commit
 * checkpointed off this thread (`Checkpoints.largeWrite`). `write` is told which slice is the last.
 */
export async function importInSlices<T>(
  db: Kysely<Database>,
  checkpoints: Checkpoints | undefined,
  rows: readonly T[],
  size: number,
  write: (trx: Kysely<Database>, slice: readonly T[], last: boolean) => Promise<void>,
  weight?: (row: T) => number,
): Promise<void> {
  if (rows.length === 0) return;
  const slices = slicesOf(rows, size, weight);
  const all = () =>
    db.transaction().execute(async (trx) => {
      for (const [i, slice] of slices.entries()) {
        if (i > 0) await nextTurn();
        await write(trx, slice, i === slices.length - 1);
      }
    });
  await (checkpoints ? checkpoints.largeWrite(all) : all());
}

/** Values an import's lookup (ids, handles) asks for in one statement: about 1-2 ms of this thread. */
const LOOKUP_BATCH = 2_000;

/**
 * `each` for the values in batches, a turn of the event loop between batches: SQLite's statements
 * resolve without one, and 20,000 handles in one statement were about 15 ms of every shop's thread.
 */
export async function lookUpInBatches<T>(values: readonly T[], each: (batch: T[]) => Promise<void>): Promise<void> {
  const unique = [...new Set(values)];
  for (let at = 0; at < unique.length; at += LOOKUP_BATCH) {
    if (at > 0) await nextTurn();
    await each(unique.slice(at, at + LOOKUP_BATCH));
  }
}

/** One slice of a product import: the products, their variants replaced, their serving rows. */
export async function writeProducts(trx: Kysely<Database>, shopId: number, products: readonly Product[]) {
  await trx
    .insertInto('products')
    .values(
      products.map((p) => ({
        shop_id: shopId,
        id: p.id,
        handle: p.handle,
        status: p.status,
        document: json.toDb(p),
        updated_at: time.toDb(p.updated_at),
      })),
    )
    .onConflict((oc) =>
      oc.columns(['shop_id', 'id']).doUpdateSet((eb) => ({
        handle: eb.ref('excluded.handle'),
        status: eb.ref('excluded.status'),
        document: eb.ref('excluded.document'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  const ids = products.map((p) => p.id);
  await trx.deleteFrom('variants').where('shop_id', '=', shopId).where('product_id', 'in', ids).execute();
  const variants = products.flatMap((p) =>
    p.variants.map((v) => ({
      shop_id: shopId,
      id: v.id,
      product_id: p.id,
      inventory_quantity: v.inventory_quantity,
      old_inventory_quantity: v.old_inventory_quantity,
    })),
  );
  for (const batch of chunks(variants, 5)) {
    // A variant id moving to another product in the same import: the later row wins.
    await trx
      .insertInto('variants')
      .values(batch)
      .onConflict((oc) =>
        oc.columns(['shop_id', 'id']).doUpdateSet((eb) => ({
          product_id: eb.ref('excluded.product_id'),
          inventory_quantity: eb.ref('excluded.inventory_quantity'),
          old_inventory_quantity: eb.ref('excluded.old_inventory_quantity'),
        })),
      )
      .execute();
  }
  await writeServing(trx, shopId, products);
}

/** One slice of an order import: the orders, their lines replaced whole. */
export async function writeOrders(trx: Kysely<Database>, shopId: number, orders: readonly Order[]) {
  await trx
    .insertInto('orders')
    .values(
      orders.map((o) => ({
        shop_id: shopId,
        id: o.id,
        customer_id: o.customer_id,
        created_at: o.created_at,
        cancelled_at: o.cancelled_at,
        updated_at: o.updated_at,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['shop_id', 'id']).doUpdateSet((eb) => ({
        customer_id: eb.ref('excluded.customer_id'),
        created_at: eb.ref('excluded.created_at'),
        cancelled_at: eb.ref('excluded.cancelled_at'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  const ids = orders.map((o) => o.id);
  await trx.deleteFrom('order_lines').where('shop_id', '=', shopId).where('order_id', 'in', ids).execute();
  const lines = orders.flatMap((o) =>
    o.lines.map((l, lineNo) => ({
      shop_id: shopId,
      order_id: o.id,
      line_no: lineNo,
      product_id: l.product_id,
      variant_id: l.variant_id,
      quantity: l.quantity,
      price: l.price,
      customer_id: o.customer_id,
      created_at: o.created_at,
      cancelled: o.cancelled_at === null ? 0 : 1,
    })),
  );
  // The bound on parameters counts every column a line has (a new column changes it).
  const columns = Object.keys(lines[0] ?? {}).length;
  for (const batch of chunks(lines, columns)) await trx.insertInto('order_lines').values(batch).execute();
}
