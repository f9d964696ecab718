/**
 * The assembly thread: reads pages of a shop's stored serving rows from the database itself and
 * packs them into buffers that are moved, not copied, to the request thread (§23): the answer bytes
 * and the index fields as columns. The request thread then makes the products' objects and swaps
 * the catalog in.
 *
 * This file serves SQLite, opened here without the store: loading Kysely (some 280 modules) was
 * most of the thread's start-up, about 100 of 180 ms of CPU, and the store's connection started a
 * checkpointing thread of its own besides the request thread's. PostgreSQL is read through the
 * store (assembly-store-worker.ts).
 */
import SQLite from 'better-sqlite3';
import { Piscina } from 'piscina';
import { getOrCreate } from '../domain/maps.js';
import { columnBuffers } from '../indexes/product-columns.js';
import { packPage } from '../indexes/product-serving.js';
import { foldSales, type SalesColumns, type SalesFold } from '../indexes/sales.js';
import type { SoldLine } from '../store/kysely/commerce.js';
import { type ServedProduct, sqliteServedPages } from '../store/kysely/product-serving.js';
import { sqliteSoldLinesOf } from '../store/kysely/sold-lines.js';

/**
 * A page to read, a shop's sales figures to fold, or `warm`: only open the database, so that the
 * first page finds the thread ready.
 */
export type AssemblyTask =
  | { databaseUrl: string; warm: true }
  | { databaseUrl: string; shopId: number; afterId: number; limit: number; maxBytes: number }
  | { databaseUrl: string; shopId: number; sales: SalesFold };

/** A page's rows packed (cut at its bytes), its buffers moved to the request thread rather than copied. */
export function movePacked(rows: readonly ServedProduct[], page: { limit: number; maxBytes: number }): unknown {
  const packed = packPage(rows, page);
  const buffers = [packed.ids.buffer, packed.bytes.buffer, packed.ends.buffer, ...columnBuffers(packed.fields)];
  return Piscina.move({
    [Piscina.transferableSymbol]: buffers,
    [Piscina.valueSymbol]: packed,
  } as unknown as ArrayBuffer);
}

/**
 * A shop's sales figures folded here, from one read of its sold lines, their arrays moved: an
 * orders import of 100,000 lines held the request thread 0.7–1.1 s reading and folding them.
 */
export function moveFolded(lines: readonly SoldLine[], fold: SalesFold): unknown {
  const columns = foldSales(lines, fold.now, fold.settings);
  const { purchases, coPurchases } = columns;
  const arrays = [columns.ids, columns.units90, columns.units30, columns.scores, ...Object.values(purchases)];
  const buffers = new Set([...arrays, ...Object.values(coPurchases)].map((array) => array.buffer));
  return Piscina.move({
    [Piscina.transferableSymbol]: [...buffers],
    [Piscina.valueSymbol]: columns satisfies SalesColumns,
  } as unknown as ArrayBuffer);
}

interface Reads {
  pages: ReturnType<typeof sqliteServedPages>;
  soldLines: ReturnType<typeof sqliteSoldLinesOf>;
}

const connections = new Map<string, Reads>();

/** One connection per database for the thread's lifetime (the pool's idle timeout ends it). */
function readsOf(databaseUrl: string): Reads {
  return getOrCreate(connections, databaseUrl, () => {
    const database = new SQLite(databaseUrl.slice('sqlite:'.length));
    database.pragma('busy_timeout = 5000');
    return { pages: sqliteServedPages(database), soldLines: sqliteSoldLinesOf(database) };
  });
}

export default async function readPage(task: AssemblyTask): Promise<unknown> {
  const reads = readsOf(task.databaseUrl);
  if ('warm' in task) return null;
  if ('sales' in task) return moveFolded(reads.soldLines(task.shopId), task.sales);
  return movePacked(reads.pages(task.shopId, { afterId: task.afterId, limit: task.limit }), task);
}
