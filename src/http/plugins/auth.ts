import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, InvalidInputError, MissingInputError, UnauthorizedError } from '../../domain/errors.js';
import type { KeyKind } from '../../domain/shop.js';
import type { FoundKey, KeyIndex } from '../../indexes/key-index.js';

export type RouteAuth = 'public' | 'private' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which API key a public route needs; admin routes use the admin hook instead. */
    auth?: RouteAuth;
    /** Marks the list endpoints that /api/v1/sources describes. */
    listSource?: boolean;
  }
  interface FastifyRequest {
    /** The key that authenticated the request: its shop, kind and hash (rate limits count by the hash). */
    apiKey: { shopId: number; kind: KeyKind; hash: string } | null;
  }
}

export const MISSING_KEY = 'Missing API key. Pass your key in the key query parameter.';

/**
 * The key from `key` in the query string, the `X-Api-Key` header (or `X-Rebuy-User-Token`, the
 * header the platform widget sends), or `key` among the body fields of a route that reads them.
 */
function presentedKey(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.key;
  if (Array.isArray(fromQuery)) throw new InvalidInputError('key', 'Parameter key must be given once.');
  // As every declared parameter (src/domain/params/read.ts): sent as a list, it was sent, not missing.
  if (query?.['key[]'] !== undefined)
    throw new InvalidInputError('key', 'Parameter key must be given once, as key=…; key[]= is not read.');
  if (typeof fromQuery === 'string' && fromQuery !== '') return fromQuery;
  const header = request.headers['x-api-key'] ?? request.headers['x-rebuy-user-token'];
  // Node joins a header sent twice with ", "; no key holds a comma.
  if (typeof header === 'string' && header.includes(','))
    throw new InvalidInputError('X-Api-Key', 'Header X-Api-Key must be given once.');
  if (typeof header === 'string' && header !== '') return header;
  // Routes that read body fields as parameters take the key there too (the platform widget's POSTs).
  const body = request.routeOptions.config.paramsInBody
    ? (request.body as { key?: unknown } | null | undefined)
    : undefined;
  const fromBody = body?.key;
  // A key sent twice in a form, or as a JSON list or number, was sent: it is refused as such, not as missing.
  if (fromBody !== undefined && fromBody !== null && typeof fromBody !== 'string')
    throw new InvalidInputError('key', 'Parameter key must be given once, as a string.');
  return typeof fromBody === 'string' && fromBody !== '' ? fromBody : undefined;
}

/** Authenticates public API routes by key (docs/api.md, "Keys") from the in-memory key index. */
export function registerApiKeyAuth(app: FastifyInstance, keys: KeyIndex): void {
  app.decorateRequest('apiKey', null);
  // A known key is decided synchronously (no promise on the hot path); only an unknown one may wait for a reload.
  app.addHook('preValidation', (request, _reply, done) => {
    const mode = request.routeOptions.config.auth;
    if (mode !== 'public' && mode !== 'private') return done();
    let key: string | undefined;
    try {
      key = presentedKey(request);
    } catch (error) {
      return done(error as Error);
    }
    if (key === undefined) return done(new MissingInputError('key', MISSING_KEY));
    const accept = (owner: FoundKey | null): void => {
      if (!owner) {
        done(new UnauthorizedError('Invalid API key.', 'invalid_key'));
        return;
      }
      if (mode === 'private' && owner.kind !== 'private') {
        done(new ForbiddenError('This endpoint needs a private API key.', 'key_scope'));
        return;
      }
      request.apiKey = { shopId: owner.shopId, kind: owner.kind, hash: owner.hash };
      done();
    };
    const known = keys.lookup(key);
    if (known) return accept(known);
    keys.lookupFresh(key).then(accept, (error: Error) => done(error));
  });
}
