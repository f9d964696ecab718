import type { FastifyRequest } from 'fastify';
import { NotFoundError } from '../../domain/errors.js';
import type { Shop } from '../../domain/shop.js';
import type { ShopCatalog } from '../../indexes/shop-catalog.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The shop the request acts on, resolved once at the edge: admin by its path (admin-auth.ts),
     * public by its key (resident-shop.ts).
     */
    shop: Shop | null;
    /** The catalog generation a public request pinned once its key named the shop: it reads this one throughout. */
    catalog: ShopCatalog | null;
  }
}

/** The shop a route acts on, as the edge resolved it (a route without one is a programming error). */
export function shopOf(request: FastifyRequest): Shop {
  if (!request.shop) throw new Error(`${request.method} ${request.routeOptions.url} resolves no shop`);
  return request.shop;
}

/** The catalog generation a public request pinned; a shop without one is a 404, as before. */
export function catalogOf(request: FastifyRequest): ShopCatalog {
  if (!request.catalog) throw new NotFoundError('Shop not found.');
  return request.catalog;
}
