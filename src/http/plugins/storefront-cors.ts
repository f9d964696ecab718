import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * The routes a storefront page calls from the browser, from any origin (docs/operations.md,
 * "Security model"). Nothing else answers cross-origin: not billing (private key), admin or webhooks.
 */
const STOREFRONT_PATHS = /^\/api\/v[12]\/(products|custom|analytics)\//;

/** Whether a request path (query string ignored) may be called cross-origin. */
export function isStorefrontPath(url: string): boolean {
  return STOREFRONT_PATHS.test(url.split('?', 1)[0] ?? '');
}

const OPEN = {
  origin: '*',
  methods: ['GET', 'POST', 'OPTIONS'],
  allowedHeaders: ['Content-Type', 'X-Api-Key', 'X-Rebuy-User-Token'],
  maxAge: 86_400,
};

/** CORS on the storefront routes of this scope only. */
export async function registerStorefrontCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, {
    delegator: (request, done) => done(null, isStorefrontPath(request.url) ? OPEN : { origin: false }),
  });
}
