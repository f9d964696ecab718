import { LRUCache } from 'lru-cache';
import { boundedEntries } from '../../../domain/maps.js';

export type CachedKind = 'customer' | 'subscriptions' | 'address' | 'charge';

/** Bytes the kept reads may take in all, and one of them: a provider answering megabytes is read, not kept. */
const MAX_BYTES = 32 * 1024 * 1024;
const MAX_ENTRY_BYTES = 1024 * 1024;

/**
 * Remote provider reads kept for 30 seconds per object (docs/billing.md, "Caching"), bounded in
 * count and bytes; a provider webhook or one of Rebound's own writes drops the object at once. Per
 * node. By count alone, one tenant's provider answering 2 MB names took the heap to 800 MB.
 */
export class ProviderReadCache {
  private readonly entries: LRUCache<string, { value: unknown }>;

  constructor(options: { ttlMs?: number; max?: number; maxBytes?: number } = {}) {
    const maxSize = options.maxBytes ?? MAX_BYTES;
    this.entries = new LRUCache({
      ...boundedEntries(options.max ?? 20_000),
      maxSize,
      maxEntrySize: Math.min(MAX_ENTRY_BYTES, maxSize),
      // Two bytes a character of its JSON: about what the parsed object holds.
      sizeCalculation: (entry) => 2 * (JSON.stringify(entry.value)?.length ?? 4),
      ttl: options.ttlMs ?? 30_000,
    });
  }

  /** The bytes the kept reads are counted at. */
  get bytes(): number {
    return this.entries.calculatedSize;
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
