import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { SoldLine } from './commerce.js';
import { rawReader } from './load-reads.js';

/**
 * Reads a shop's sold lines: not cancelled, oldest first, by order and line, which is the order of
 * the index order_lines_sold (shop, cancelled, time, order, line); the query sorts nothing itself.
 */
export type SoldLinesReader = (shopId: number) => Promise<SoldLine[]>;

export function soldLinesReader(db: Kysely<Database>, sqlite?: SQLite.Database): SoldLinesReader {
  return sqlite ? sqliteSoldLines(db, sqlite) : kyselySoldLines(db);
}

const SOLD_LINES = `select order_id, product_id, quantity, customer_id, created_at from order_lines
  where shop_id = ? and cancelled = 0 order by created_at, order_id, line_no`;

type SoldRow = [orderId: number, productId: number, quantity: number, customerId: number | null, at: number];

/**
 * SQLite: the rows as arrays (`rawReader`); the lines are made here. Through Kysely, with an object
 * a row, this was about half of a shop's sales figures (a thousand lines); arrays cost half as much.
 */
function sqliteSoldLines(db: Kysely<Database>, sqlite: SQLite.Database): SoldLinesReader {
  const read = rawReader<[number], SoldRow>(db, sqlite, SOLD_LINES);
  return async (shopId) => linesOf(await read(shopId));
}

/** SQLite opened without the store (the assembly thread): the same query on a connection of its own. */
export function sqliteSoldLinesOf(database: SQLite.Database): (shopId: number) => SoldLine[] {
  const statement = database.prepare<[number], SoldRow>(SOLD_LINES).raw(true);
  // Row by row: every row's array held beside every line made from it took half as much memory again.
  return (shopId) => {
    const lines: SoldLine[] = [];
    for (const row of statement.iterate(shopId)) lines.push(lineOf(row));
    return lines;
  };
}

const lineOf = (row: SoldRow): SoldLine => ({
  orderId: row[0],
  productId: row[1],
  quantity: row[2],
  customerId: row[3],
  at: row[4],
});

function linesOf(rows: readonly SoldRow[]): SoldLine[] {
  const lines = new Array<SoldLine>(rows.length);
  for (let i = 0; i < rows.length; i++) lines[i] = lineOf(rows[i]!);
  return lines;
}

/** PostgreSQL (and SQLite opened without its handle): the query through Kysely. */
function kyselySoldLines(db: Kysely<Database>): SoldLinesReader {
  return async (shopId) => {
    const rows: SoldLine[] = await db
      .selectFrom('order_lines')
      .select([
        'order_id as orderId',
        'product_id as productId',
        'quantity',
        'customer_id as customerId',
        'created_at as at',
      ])
      .where('shop_id', '=', shopId)
      .where('cancelled', '=', 0)
      .orderBy('created_at')
      .orderBy('order_id')
      .orderBy('line_no')
      .execute();
    // The pool reads bigints as numbers (connect.ts); a driver giving them as strings has them converted.
    if (rows.length === 0 || typeof rows[0]!.orderId === 'number') return rows;
    return rows.map((r) => ({
      orderId: Number(r.orderId),
      productId: Number(r.productId),
      quantity: Number(r.quantity),
      customerId: r.customerId === null ? null : Number(r.customerId),
      at: Number(r.at),
    }));
  };
}
