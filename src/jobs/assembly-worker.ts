/**
 * The assembly thread: reads pages of a shop's stored serving rows from the database itself and
 * packs them into one buffer that is moved, not copied, to the request thread (§23). The request
 * thread then only parses the page's small index fields and swaps the catalog in.
 */
import { Piscina } from 'piscina';
import { getOrCreate } from '../domain/maps.js';
import { packServed } from '../indexes/product-serving.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/store.js';

/** A page to read, or `warm`: only open the store, so that the first page finds the thread ready. */
export type AssemblyTask =
  | { databaseUrl: string; warm: true }
  | { databaseUrl: string; shopId: number; afterId: number; limit: number };

const stores = new Map<string, Promise<Store>>();

/** One connection per database for the thread's lifetime (the pool's idle timeout ends it). */
function storeFor(databaseUrl: string): Promise<Store> {
  return getOrCreate(stores, databaseUrl, () => openStore(databaseUrl, { migrate: false }));
}

export default async function readPage(task: AssemblyTask): Promise<unknown> {
  const store = await storeFor(task.databaseUrl);
  if ('warm' in task) return null;
  const packed = packServed(await store.listServedProducts(task.shopId, { afterId: task.afterId, limit: task.limit }));
  const buffers = [packed.ids.buffer, packed.bytes.buffer, packed.ends.buffer];
  return Piscina.move({
    [Piscina.transferableSymbol]: buffers,
    [Piscina.valueSymbol]: packed,
  } as unknown as ArrayBuffer);
}
