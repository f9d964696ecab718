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
import { packServed } from '../indexes/product-serving.js';
import { type ServedProduct, sqliteServedPages } from '../store/kysely/product-serving.js';

/** A page to read, or `warm`: only open the database, so that the first page finds the thread ready. */
export type AssemblyTask =
  | { databaseUrl: string; warm: true }
  | { databaseUrl: string; shopId: number; afterId: number; limit: number };

/** A page's rows packed, its buffers moved to the request thread rather than copied. */
export function movePacked(rows: readonly ServedProduct[]): unknown {
  const packed = packServed(rows);
  const buffers = [packed.ids.buffer, packed.bytes.buffer, packed.ends.buffer, ...columnBuffers(packed.fields)];
  return Piscina.move({
    [Piscina.transferableSymbol]: buffers,
    [Piscina.valueSymbol]: packed,
  } as unknown as ArrayBuffer);
}

const readers = new Map<string, ReturnType<typeof sqliteServedPages>>();

/** One connection per database for the thread's lifetime (the pool's idle timeout ends it). */
function readerFor(databaseUrl: string): ReturnType<typeof sqliteServedPages> {
  return getOrCreate(readers, databaseUrl, () => {
    const database = new SQLite(databaseUrl.slice('sqlite:'.length));
    database.pragma('busy_timeout = 5000');
    return sqliteServedPages(database);
  });
}

export default async function readPage(task: AssemblyTask): Promise<unknown> {
  const read = readerFor(task.databaseUrl);
  if ('warm' in task) return null;
  return movePacked(read(task.shopId, { afterId: task.afterId, limit: task.limit }));
}
