import { LRUCache } from 'lru-cache';
import { boundedEntries } from '../../../domain/maps.js';

export type CachedKind = 'customer' | 'subscriptions' | 'address' | 'charge';

/**
 * Remote provider reads kept for 30 seconds per object (docs/billing.md, "Caching"), bounded in
 * size; a provider webhook or one of Rebound's own writes drops the object at once. Per node.
 */
export class ProviderReadCache {
  private readonly entries: LRUCache<string, { value: unknown }>;

  constructor(options: { ttlMs?: number; max?: number } = {}) {
    this.entries = new LRUCache({ ...boundedEntries(options.max ?? 20_000), ttl: options.ttlMs ?? 30_000 });
  }

  /** The cached object, or the loaded one (kept unless it is null: a missing object is asked again). */
  async read<T>(shopId: number, kind: CachedKind, id: number, load: () => Promise<T | null>): Promise<T | null> {
    const key = `${shopId}:${kind}:${id}`;
    const hit = this.entries.get(key);
    if (hit) return hit.value as T;
    const value = await load();
    if (value !== null) this.entries.set(key, { value });
    return value;
  }

  drop(shopId: number, kind: CachedKind, id: number): void {
    this.entries.delete(`${shopId}:${kind}:${id}`);
  }

  /** Forgets everything of a shop (its provider settings changed). */
  dropShop(shopId: number): void {
    const prefix = `${shopId}:`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
