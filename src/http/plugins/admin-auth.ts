import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../domain/errors.js';
import type { Shop } from '../../domain/shop.js';
import type { AdminAuth, AdminPrincipal } from '../../services/admin-auth.js';
import type { ShopsService } from '../../services/shops.js';

declare module 'fastify' {
  interface FastifyRequest {
    admin: AdminPrincipal | null;
  }
}

/** The bearer token a request presented (the admin hook has checked it). */
export function bearerOf(request: FastifyRequest): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? null;
}

/** Bearer authentication for every route of the (encapsulated) admin plugin. */
export function registerAdminAuth(app: FastifyInstance, auth: AdminAuth): void {
  app.decorateRequest('admin', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header)
      throw new UnauthorizedError(
        'Missing admin credentials. Send Authorization: Bearer <token>.',
        'missing_credentials',
      );
    const token = bearerOf(request);
    const principal = token ? auth.verify(token) : null;
    if (!principal) throw new UnauthorizedError('Invalid admin credentials.', 'invalid_credentials');
    request.admin = principal;
  });
}

/** Only the operator token may act on every shop (create shops, list them). */
export function requireOperator(request: FastifyRequest): void {
  if (!request.admin?.operator)
    throw new ForbiddenError('This admin endpoint needs the operator token.', 'operator_only');
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False on a /shops/:handle route that checks the caller before the shop (operator-only): no resolution. */
    resolvesShop?: boolean;
  }
}

/**
 * Resolves the shop of every /shops/:handle route once, after authentication and validation, as
 * `request.shop` (read with `shopOf`); the handler and the services it calls take it from there.
 */
export function registerAdminShop(app: FastifyInstance, shops: ShopsService): void {
  app.decorateRequest('shop', null);
  app.addHook('preHandler', async (request) => {
    const handle = (request.params as { handle?: string } | undefined)?.handle;
    if (handle === undefined || request.routeOptions.config.resolvesShop === false) return;
    request.shop = await shopFor(request, shops, handle);
  });
}

/** The shop a path names, if the caller may act on it; another shop looks exactly like a missing one. */
async function shopFor(request: FastifyRequest, shops: ShopsService, handle: string): Promise<Shop> {
  const shop = await shops.requireShop(handle);
  const admin = request.admin;
  if (!admin || (!admin.operator && admin.shopId !== shop.id)) throw new NotFoundError(`Shop ${handle} not found.`);
  return shop;
}
