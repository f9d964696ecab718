import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import { boundedEntries } from '../../domain/maps.js';
import type { RateLimiter } from '../../cache/rate-limiter.js';
import { TooManyRequestsError } from '../../domain/errors.js';

/** Failed authentications (401s) a client address may cause a minute before its requests are refused. */
export const AUTH_FAILURES_PER_MINUTE = 300;

/**
 * Failed authentications are rate-limited per client address: every 401 counts (shared across
 * nodes with Redis); past the limit, this node refuses the address's requests with a 429 until the
 * minute ends, before any key or signature is checked (docs/operations.md, "Security model").
 */
export function registerAuthFailureLimit(
  app: FastifyInstance,
  limiter: RateLimiter,
): { blocked: (ip: string) => boolean } {
  const blocked = new LRUCache<string, number>(boundedEntries(100_000));
  // Callback hooks: every request passes both, and an async hook costs each of them a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const until = blocked.get(request.ip);
    if (until === undefined) return done();
    const now = Date.now();
    if (until <= now) {
      blocked.delete(request.ip);
      return done();
    }
    const retryAfter = Math.max(1, Math.ceil((until - now) / 1000));
    void reply.header('retry-after', String(retryAfter));
    done(
      new TooManyRequestsError(
        `Too many failed authentications from this address. Retry after ${retryAfter} seconds.`,
        retryAfter,
      ),
    );
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode !== 401) return done();
    limiter.hit(`af:${request.ip}`, AUTH_FAILURES_PER_MINUTE).then(
      (decision) => {
        if (!decision.allowed) blocked.set(request.ip, Date.now() + decision.retryAfter * 1000);
        done();
      },
      (error: Error) => done(error),
    );
  });
  // Whether the address is refused now (the hook above answers its 429).
  return { blocked: (ip) => blocked.size > 0 && (blocked.get(ip) ?? 0) > Date.now() };
}
