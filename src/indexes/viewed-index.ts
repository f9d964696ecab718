import { LRUCache } from 'lru-cache';
import { boundedEntries } from '../domain/maps.js';
import type { StoreEvent } from '../domain/events.js';
import type { EventFilter, EventStore } from '../store/kysely/events.js';

/** How many recent views of one visitor are kept: far more than any answer's limit. */
const KEEP = 100;
/**
 * Bytes the lists may hold in all. A list lives 5 s, so a node keeps the visitors of its last seconds: a
 * bound by count alone let 100,000 lists of 100 handles of 255 characters take gigabytes outside the
 * memory budget.
 */
const MAX_BYTES = 16 * 1024 * 1024;

/** A list's memory, roughly: the array, and each handle's string (two bytes a character, with its header). */
const listBytes = (handles: string[]) => 64 + handles.reduce((sum, h) => sum + 24 + 2 * h.length, 0);

/**
 * Recently viewed handles per visitor (session or customer), newest first, each once. Filled
 * from the database on first read, then kept current by this node's own intake; entries expire
 * after a few seconds so views taken by other nodes appear too.
 */
export class ViewedIndex {
  private readonly lru: LRUCache<string, string[]>;

  constructor(
    private readonly store: EventStore,
    options: { maxVisitors?: number; ttlMs?: number; maxBytes?: number } = {},
  ) {
    this.lru = new LRUCache({
      ...boundedEntries(options.maxVisitors ?? 100_000),
      maxSize: options.maxBytes ?? MAX_BYTES,
      sizeCalculation: listBytes,
      ttl: options.ttlMs ?? 5_000,
    });
  }

  /** The bytes the kept lists take, as counted against MAX_BYTES. */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  private static key(shopId: number, filter: EventFilter): string {
    return filter.uuid ? `${shopId}|u|${filter.uuid}` : `${shopId}|c|${filter.customerId}`;
  }

  async handles(shopId: number, filter: EventFilter): Promise<readonly string[]> {
    // No visitor named: none of theirs (the store would read every visitor's latest views).
    if ((filter.uuid ?? null) === null && (filter.customerId ?? null) === null) return [];
    const key = ViewedIndex.key(shopId, filter);
    const cached = this.lru.get(key);
    if (cached) return cached;
    const distinct = [...new Set(await this.store.latestViewedHandles(shopId, filter, KEEP * 5))].slice(0, KEEP);
    this.lru.set(key, distinct);
    return distinct;
  }

  /** Forgets what is kept of a customer and their sessions (an erasure). */
  forget(shopId: number, customerId: number, sessions: readonly string[]): void {
    this.lru.delete(ViewedIndex.key(shopId, { customerId }));
    for (const uuid of sessions) this.lru.delete(ViewedIndex.key(shopId, { uuid }));
  }

  /** A committed view moves its handle to the front for that session and that customer. */
  record(shopId: number, event: StoreEvent): void {
    if (event.verb !== 'viewed' || event.handle === null) return;
    for (const filter of [{ uuid: event.uuid }, { customerId: event.customer_id }]) {
      if (!filter.uuid && !filter.customerId) continue;
      const key = ViewedIndex.key(shopId, filter);
      const list = this.lru.get(key, { updateAgeOnGet: false });
      if (!list) continue;
      const next = [event.handle, ...list.filter((h) => h !== event.handle)].slice(0, KEEP);
      this.lru.set(key, next, { ttl: this.lru.getRemainingTTL(key) || undefined });
    }
  }
}
