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
export function registerAuthFailureLimit(app: FastifyInstance, limiter: RateLimiter): void {
  const blocked = new LRUCache<string, number>(boundedEntries(100_000));
  app.addHook('onRequest', async (request, reply) => {
    const until = blocked.get(request.ip);
    if (until === undefined) return;
    const now = Date.now();
    if (until <= now) return void blocked.delete(request.ip);
    const retryAfter = Math.max(1, Math.ceil((until - now) / 1000));
    void reply.header('retry-after', String(retryAfter));
    throw new TooManyRequestsError(
      `Too many failed authentications from this address. Retry after ${retryAfter} seconds.`,
      retryAfter,
    );
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode !== 401) return;
    const decision = await limiter.hit(`af:${request.ip}`, AUTH_FAILURES_PER_MINUTE);
    if (!decision.allowed) blocked.set(request.ip, Date.now() + decision.retryAfter * 1000);
  });
}
