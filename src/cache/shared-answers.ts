import type { Redis } from 'ioredis';
import { answerKey, type CachedAnswer, type ResponseCache } from './response-cache.js';

/**
 * The answer cache across API nodes: this node's LRU first, then Redis. Redis errors are logged
 * (at most once a minute) and served around: a miss, never an error.
 */
export class SharedAnswers {
  private lastWarning = 0;
  remoteHits = 0;
  remoteErrors = 0;

  constructor(
    readonly local: ResponseCache,
    private readonly redis: Redis | null,
    private readonly options: { prefix: string; ttlSeconds: number; warn: (error: unknown) => void },
  ) {}

  get enabled(): boolean {
    return this.local.enabled;
  }

  async get(key: string): Promise<CachedAnswer | undefined> {
    return this.local.get(key) ?? this.getRemote(key);
  }

  /** Redis alone (after a miss in this node's cache, which the caller looked in): stored here too when found. */
  async getRemote(key: string): Promise<CachedAnswer | undefined> {
    if (!this.redis || !this.local.enabled) return undefined;
    try {
      const body = await this.redis.getBuffer(`${this.options.prefix}ans:${key}`);
      if (!body) return undefined;
      this.remoteHits++;
      return this.local.set(key, body);
    } catch (error) {
      this.failed(error);
      return undefined;
    }
  }

  set(key: string, body: Buffer): CachedAnswer {
    const answer = this.local.set(key, body);
    if (this.redis && this.local.enabled) {
      this.redis
        .set(`${this.options.prefix}ans:${key}`, body, 'EX', Math.max(1, this.options.ttlSeconds))
        .catch((error: unknown) => this.failed(error));
    }
    return answer;
  }

  /** Drops a shop's answers here and in Redis (other nodes drop theirs on the change bus). */
  async forgetShop(shopId: number): Promise<void> {
    this.local.deleteShop(shopId);
    if (!this.redis) return;
    const pattern = `${this.options.prefix.replace(/[*?[\]\\]/g, '\\$&')}ans:${answerKey(shopId, '*', '*')}`;
    try {
      const stream = this.redis.scanStream({ match: pattern, count: 500 });
      for await (const keys of stream as AsyncIterable<string[]>) if (keys.length > 0) await this.redis.unlink(...keys);
    } catch (error) {
      this.failed(error);
    }
  }

  compress(answer: CachedAnswer): void {
    this.local.compress(answer);
  }

  private failed(error: unknown): void {
    this.remoteErrors++;
    if (Date.now() - this.lastWarning > 60_000) {
      this.lastWarning = Date.now();
      this.options.warn(error);
    }
  }
}
