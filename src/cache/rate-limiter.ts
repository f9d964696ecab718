import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { boundedEntries } from '../domain/maps.js';

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window resets. */
  retryAfter: number;
}

/**
 * Fixed one-minute windows per caller. With Redis the counts are shared by every node (one
 * INCR a request); if Redis fails, this node's own counts decide, never an error.
 */
export class RateLimiter {
  private readonly local = new LRUCache<string, { count: number; resetAt: number }>(boundedEntries(200_000));

  constructor(
    private readonly redis: Redis | null,
    private readonly prefix: string,
    private readonly windowMs = 60_000,
  ) {}

  /** Whether this node's own counts decide (no Redis): `hitLocally` then always answers. */
  get decidesLocally(): boolean {
    return this.redis === null;
  }

  /** The decision without waiting, when this node's own counts decide (no Redis); null when Redis does. */
  hitLocally(id: string, limit: number, now = Date.now()): RateDecision | null {
    if (this.redis) return null;
    const resetAt = this.resetAt(now);
    const count = this.count(id, resetAt);
    return {
      allowed: count <= limit,
      remaining: Math.max(0, limit - count),
      retryAfter: Math.max(1, Math.ceil((resetAt - now) / 1000)),
    };
  }

  /**
   * Takes back one request counted by `hitLocally` in the same window: one that is then handed
   * to the route, which counts it again, is counted once in all.
   */
  refundLocally(id: string, now = Date.now()): void {
    const entry = this.local.get(id);
    if (entry && entry.resetAt === this.resetAt(now) && entry.count > 0) entry.count--;
  }

  /** When the window holding `now` ends. */
  private resetAt(now: number): number {
    return (Math.floor(now / this.windowMs) + 1) * this.windowMs;
  }

  async hit(id: string, limit: number, now = Date.now()): Promise<RateDecision> {
    const window = Math.floor(now / this.windowMs);
    const resetAt = this.resetAt(now);
    const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
    let count: number;
    try {
      count = this.redis ? await this.remote(`${this.prefix}rl:${id}:${window}`) : this.count(id, resetAt);
    } catch {
      count = this.count(id, resetAt);
    }
    return { allowed: count <= limit, remaining: Math.max(0, limit - count), retryAfter };
  }

  private count(id: string, resetAt: number): number {
    const entry = this.local.get(id);
    if (!entry || entry.resetAt !== resetAt) {
      this.local.set(id, { count: 1, resetAt });
      return 1;
    }
    entry.count++;
    return entry.count;
  }

  private async remote(key: string): Promise<number> {
    const results = await this.redis!.multi()
      .incr(key)
      .pexpire(key, this.windowMs * 2)
      .exec();
    const [error, value] = results?.[0] ?? [new Error('no answer'), null];
    if (error) throw error;
    return Number(value);
  }
}
