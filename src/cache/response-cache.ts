import { gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';

/** An answer as cached: the bytes, and their gzip form, made once, off the request path. */
export interface CachedAnswer {
  readonly body: Buffer;
  gzip: Buffer | null;
  /** Set while the gzip form is being made (or when the answer is too small to compress). */
  compressing: boolean;
}

/** Answers smaller than this are not worth compressing. */
const COMPRESS_FROM = 1024;

/**
 * Finished answers by request, bounded by bytes, with a time to live. Keys carry the shop's data
 * version, so any write to a shop makes its old answers unreachable at once; they age out.
 */
export class ResponseCache {
  private readonly lru: LRUCache<string, CachedAnswer>;
  hits = 0;
  misses = 0;

  constructor(options: { ttlSeconds: number; maxBytes?: number }) {
    this.lru = new LRUCache<string, CachedAnswer>({
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (a) => a.body.length + (a.gzip?.length ?? 0) + 64,
      ttl: Math.max(1, options.ttlSeconds) * 1000,
      ttlAutopurge: false,
    });
    this.enabled = options.ttlSeconds > 0;
  }

  readonly enabled: boolean;

  get(key: string): CachedAnswer | undefined {
    if (!this.enabled) return undefined;
    const hit = this.lru.get(key);
    if (hit) this.hits++;
    else this.misses++;
    return hit;
  }

  /** Like `get`, for a lookup that goes on to `get` when it finds nothing: only a hit is counted. */
  hit(key: string): CachedAnswer | undefined {
    if (!this.enabled) return undefined;
    const hit = this.lru.get(key);
    if (hit) this.hits++;
    return hit;
  }

  /** The answer stored for a key, if any, counted neither as a hit nor as a miss. */
  peek(key: string): CachedAnswer | undefined {
    return this.enabled ? this.lru.peek(key) : undefined;
  }

  /** Stores an answer; its gzip form is made later, the first time a client asks for it. */
  set(key: string, body: Buffer): CachedAnswer {
    const answer: CachedAnswer = { body, gzip: null, compressing: body.length < COMPRESS_FROM };
    if (this.enabled) this.lru.set(key, answer);
    return answer;
  }

  /**
   * Starts compressing a cached answer in the thread pool. Until it is done the plain bytes are
   * served, so no request waits for gzip, and answers nobody asks compressed are never compressed.
   */
  compress(answer: CachedAnswer): void {
    if (answer.compressing || !this.enabled) return;
    answer.compressing = true;
    gzip(answer.body, { level: 6 }, (error, zipped) => {
      if (!error) answer.gzip = zipped;
    });
  }

  delete(key: string): void {
    this.lru.delete(key);
  }

  /** Drops every answer of a shop, whatever its version (an erasure must not leave them stored). */
  deleteShop(shopId: number): void {
    this.drops.set(shopId, this.dropsOf(shopId) + 1);
    const prefix = answerKey(shopId, '', '').slice(0, -1);
    for (const key of [...this.lru.keys()]) if (key.startsWith(prefix)) this.lru.delete(key);
    for (const listener of this.shopDeletedListeners) listener(shopId);
  }

  /** Times a shop's answers were dropped here (per shop of the node, so bounded as its shops are). */
  private readonly drops = new Map<number, number>();

  /**
   * How many times the shop's answers were dropped: an answer computed while they were (a request
   * that read the data an erasure then deleted) is sent, and not stored, when the count moved.
   */
  dropsOf(shopId: number): number {
    return this.drops.get(shopId) ?? 0;
  }

  private readonly shopDeletedListeners: ((shopId: number) => void)[] = [];

  /** Told of each shop whose answers are dropped: what else keeps its requests (the answer lane) drops them too. */
  onShopDeleted(listener: (shopId: number) => void): void {
    this.shopDeletedListeners.push(listener);
  }
}

/** A cached answer's key: shop, data version, and the request in canonical form (path and declared parameters). */
export function answerKey(shopId: number, version: number | string, request: string): string {
  return `${shopId}:${version}:${request}`;
}
