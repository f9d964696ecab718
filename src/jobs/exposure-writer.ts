import { LRUCache } from 'lru-cache';
import { boundedEntries } from '../domain/maps.js';
import type { Exposure } from '../store/kysely/experiments.js';

/**
 * Visitors an experiment arm served, written off the request path: buffered, written every
 * `flushMs` or once `maxBatch` wait, each visitor once per node while it is remembered (the store
 * ignores repeats anyway). A failed write keeps its rows for the next one, up to `maxPending`.
 */
export class ExposureWriter {
  private pending = new Map<string, Exposure>();
  private readonly recent: LRUCache<string, true>;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  dropped = 0;
  written = 0;

  constructor(
    /** Writes rows; resolves with those it dropped (made before an erasure), which are not remembered as written. */
    private readonly write: (rows: Exposure[]) => Promise<readonly Exposure[]>,
    private readonly options: {
      flushMs: number;
      maxBatch: number;
      maxPending: number;
      remember: number;
      onError?: (error: unknown) => void;
    },
  ) {
    this.recent = new LRUCache(boundedEntries(options.remember));
  }

  /** Notes a visitor served by an arm; never waits and never throws. */
  record(exposure: Exposure): void {
    const key = `${exposure.shop_id}:${exposure.experiment_id}:${exposure.visitor}`;
    if (this.recent.has(key) || this.pending.has(key)) return;
    if (this.pending.size >= this.options.maxPending) {
      this.dropped++;
      return;
    }
    this.pending.set(key, exposure);
    if (this.pending.size >= this.options.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs).unref();
  }

  /** Whether this visitor's exposure is still buffered here (not yet in the store). */
  holds(shopId: number, experimentId: number, visitor: string): boolean {
    return this.pending.has(`${shopId}:${experimentId}:${visitor}`);
  }

  /** Writes what is buffered now; resolves when it (and any write before it) is done. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.writing = this.writing.then(async () => {
      if (batch.size === 0) return;
      try {
        const dropped = new Set(await this.write([...batch.values()]));
        for (const [key, row] of batch) if (!dropped.has(row)) this.recent.set(key, true);
        this.written += batch.size - dropped.size;
      } catch (error) {
        this.options.onError?.(error);
        for (const [key, row] of batch) if (this.pending.size < this.options.maxPending) this.pending.set(key, row);
        this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs).unref();
      }
    });
    return this.writing;
  }

  /**
   * Forgets a shop's visitors (an erasure; `null`: all of them, the shop deleted): their buffered
   * exposures are dropped, and they are no longer remembered as written, so a later visit is recorded
   * afresh. Resolves once no write is under way: whatever of theirs reached the store, before or
   * during this, is the caller's to delete.
   */
  async forget(shopId: number, visitors: readonly string[] | null): Promise<void> {
    const gone = visitors === null ? null : new Set(visitors);
    const theirs = (visitor: string) => gone === null || gone.has(visitor);
    const dropPending = () => {
      for (const [key, row] of this.pending)
        if (row.shop_id === shopId && theirs(row.visitor)) this.pending.delete(key);
    };
    dropPending();
    const prefix = `${shopId}:`;
    for (const key of [...this.recent.keys()]) {
      // A key is `shop:experiment:visitor`, and a visitor itself holds one colon (`u:…`, `c:…`).
      if (key.startsWith(prefix) && theirs(key.slice(key.indexOf(':', prefix.length) + 1))) this.recent.delete(key);
    }
    await this.writing;
    dropPending(); // a failed write puts its rows back
  }

  /** Writes the rest (graceful shutdown). */
  async close(): Promise<void> {
    await this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
