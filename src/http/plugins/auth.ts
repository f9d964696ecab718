import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, InvalidInputError, UnauthorizedError } from '../../domain/errors.js';
import type { KeyKind } from '../../domain/shop.js';
import type { KeyIndex } from '../../indexes/key-index.js';

export type RouteAuth = 'public' | 'private' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which API key a public route needs; admin routes use the admin hook instead. */
    auth?: RouteAuth;
    /** Marks the list endpoints that /api/v1/sources describes. */
    listSource?: boolean;
  }
  interface FastifyRequest {
    apiKey: { shopId: number; kind: KeyKind } | null;
  }
}

export const MISSING_KEY = 'Missing API key. Pass your key in the key query parameter.';

/** The key from `key` in the query string, or the `X-Api-Key` header. */
function presentedKey(request: FastifyRequest): string | undefined {
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.key;
  if (Array.isArray(fromQuery)) throw new InvalidInputError('key', 'Parameter key must be given once.');
  if (typeof fromQuery === 'string' && fromQuery !== '') return fromQuery;
  const header = request.headers['x-api-key'];
  return typeof header === 'string' && header !== '' ? header : undefined;
}

/** Authenticates public API routes by key (product.md §1) from the in-memory key index. */
export function registerApiKeyAuth(app: FastifyInstance, keys: KeyIndex): void {
  app.decorateRequest('apiKey', null);
  app.addHook('preValidation', async (request) => {
    const mode = request.routeOptions.config.auth;
    if (mode !== 'public' && mode !== 'private') return;
    const key = presentedKey(request);
    if (key === undefined) throw new InvalidInputError('key', MISSING_KEY);
    const owner = await keys.lookupFresh(key);
    if (!owner) throw new UnauthorizedError('Invalid API key.');
    if (mode === 'private' && owner.kind !== 'private') throw new ForbiddenError('This endpoint needs a private API key.');
    request.apiKey = { shopId: owner.shopId, kind: owner.kind };
  });
}
