import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../../cache/rate-limiter.js';
import { TooManyRequestsError } from '../../domain/errors.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';

/** Defaults of product.md §10, per minute. */
export const DEFAULT_PUBLIC_LIMIT = 1000;
export const DEFAULT_PRIVATE_LIMIT = 6000;

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

async function enforce(limiter: RateLimiter, reply: FastifyReply, id: string, limit: number): Promise<void> {
  const decision = await limiter.hit(id, limit);
  void reply.header('x-ratelimit-limit', String(limit)).header('x-ratelimit-remaining', String(decision.remaining));
  if (!decision.allowed) {
    throw new TooManyRequestsError(`Rate limit exceeded: ${limit} requests a minute for this key. Retry after ${decision.retryAfter} seconds.`, decision.retryAfter);
  }
}

/** Public routes: a public key per client address, a private key per key; limits per shop. */
export function registerApiRateLimit(app: FastifyInstance, limiter: RateLimiter, catalog: CatalogIndex): void {
  app.addHook('preHandler', async (request: FastifyRequest, reply) => {
    const apiKey = request.apiKey;
    if (!apiKey) return;
    const settings = catalog.settings(apiKey.shopId);
    const key = presented(request);
    if (apiKey.kind === 'public') {
      await enforce(limiter, reply, `p:${digest(key)}:${request.ip}`, settings?.rate_limit_public_per_minute ?? DEFAULT_PUBLIC_LIMIT);
    } else {
      await enforce(limiter, reply, `k:${digest(key)}`, settings?.rate_limit_private_per_minute ?? DEFAULT_PRIVATE_LIMIT);
    }
  });
}

/** Admin routes: per bearer (the operator token or a shop's private key). */
export function registerAdminRateLimit(app: FastifyInstance, limiter: RateLimiter, catalog: CatalogIndex): void {
  app.addHook('onRequest', async (request, reply) => {
    const admin = request.admin;
    if (!admin) return;
    const bearer = request.headers.authorization ?? '';
    const limit = admin.operator ? DEFAULT_PRIVATE_LIMIT : (await catalog.ensure(admin.shopId))?.shop.settings.rate_limit_private_per_minute ?? DEFAULT_PRIVATE_LIMIT;
    await enforce(limiter, reply, `k:${digest(bearer.replace(/^Bearer\s+/i, ''))}`, limit);
  });
}

function presented(request: FastifyRequest): string {
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.key;
  if (typeof fromQuery === 'string' && fromQuery !== '') return fromQuery;
  const header = request.headers['x-api-key'];
  return typeof header === 'string' ? header : '';
}
