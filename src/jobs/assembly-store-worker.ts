/**
 * The assembly thread on PostgreSQL (assembly-worker.ts serves SQLite): pages of a shop's stored
 * serving rows and its sold lines read through the store, on a pool of the thread's own.
 */
import { getOrCreate } from '../domain/maps.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/store.js';
import { type AssemblyTask, moveFolded, movePacked } from './assembly-worker.js';

const stores = new Map<string, Promise<Store>>();

/** One store per database for the thread's lifetime (the pool's idle timeout ends it). */
function storeFor(databaseUrl: string): Promise<Store> {
  return getOrCreate(stores, databaseUrl, () => openStore(databaseUrl, { migrate: false }));
}

export default async function readPage(task: AssemblyTask): Promise<unknown> {
  const store = await storeFor(task.databaseUrl);
  if ('warm' in task) return null;
  if ('sales' in task) return moveFolded(await store.listSoldLines(task.shopId), task.sales);
  const rows = await store.listServedProducts(task.shopId, { afterId: task.afterId, limit: task.limit });
  return movePacked(rows, task);
}
