import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateDecision, RateLimiter } from '../../cache/rate-limiter.js';
import { TooManyRequestsError } from '../../domain/errors.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import type { ShopSettings } from '../../domain/shop.js';

/** Defaults of docs/operations.md, per minute. */
export const DEFAULT_PUBLIC_LIMIT = 1000;
export const DEFAULT_PRIVATE_LIMIT = 6000;

/** A shop's per-visitor limit for public keys. */
export function publicLimit(settings: ShopSettings | undefined): number {
  return settings?.rate_limit_public_per_minute ?? DEFAULT_PUBLIC_LIMIT;
}

/** The bucket a public key's request counts in: the key's hash (never the key) and the client address. */
export function visitorBucket(keyHash: string, ip: string): string {
  return `p:${keyHash.slice(0, 32)}:${ip}`;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** Sets the limit headers; the 429 error when the caller is over the limit. */
function answer(reply: FastifyReply, decision: RateDecision, limit: number): TooManyRequestsError | undefined {
  void reply.header('x-ratelimit-limit', String(limit)).header('x-ratelimit-remaining', String(decision.remaining));
  if (decision.allowed) return undefined;
  return new TooManyRequestsError(
    `Rate limit exceeded: ${limit} requests a minute for this key. Retry after ${decision.retryAfter} seconds.`,
    decision.retryAfter,
  );
}

async function enforce(limiter: RateLimiter, reply: FastifyReply, id: string, limit: number): Promise<void> {
  const error = answer(reply, await limiter.hit(id, limit), limit);
  if (error) throw error;
}

/** Public routes: a public key per client address, a private key per key; limits per shop. */
export function registerApiRateLimit(app: FastifyInstance, limiter: RateLimiter, catalog: CatalogIndex): void {
  // Before the parameters are read: a request they refuse counts too, and its 400 carries the limit headers.
  app.addHook('preValidation', (request: FastifyRequest, reply, done) => {
    const apiKey = request.apiKey;
    if (!apiKey) return done();
    const settings = catalog.settings(apiKey.shopId);
    // Counted by the key's hash (never the key itself), for a public key per client address too.
    const [id, limit] =
      apiKey.kind === 'public'
        ? [visitorBucket(apiKey.hash, request.ip), publicLimit(settings)]
        : [`k:${apiKey.hash.slice(0, 32)}`, settings?.rate_limit_private_per_minute ?? DEFAULT_PRIVATE_LIMIT];
    const decided = limiter.hitLocally(id, limit);
    if (decided) return done(answer(reply, decided, limit));
    limiter.hit(id, limit).then(
      (decision) => done(answer(reply, decision, limit)),
      (error: Error) => done(error),
    );
  });
}

/** Admin routes: per bearer (the operator token or a shop's private key). */
export function registerAdminRateLimit(app: FastifyInstance, limiter: RateLimiter, catalog: CatalogIndex): void {
  app.addHook('onRequest', async (request, reply) => {
    const admin = request.admin;
    if (!admin) return;
    const bearer = request.headers.authorization ?? '';
    const limit = admin.operator
      ? DEFAULT_PRIVATE_LIMIT
      : ((await catalog.ensure(admin.shopId))?.shop.settings.rate_limit_private_per_minute ?? DEFAULT_PRIVATE_LIMIT);
    await enforce(limiter, reply, `k:${digest(bearer.replace(/^Bearer\s+/i, ''))}`, limit);
  });
}
