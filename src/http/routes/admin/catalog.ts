import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidInputError, NotFoundError } from '../../../domain/errors.js';
import { CollectionInput, CustomerInput, InventoryInput, MarketInput, OrderInput, ProductInput } from '../../../domain/inputs/catalog.js';
import type { Shop } from '../../../domain/shop.js';
import type { CatalogService } from '../../../services/catalog.js';
import { idList, MAX_ID_LIST } from '../../../services/params.js';
import type { ShopsService } from '../../../services/shops.js';
import { shopFor } from '../../plugins/admin-auth.js';
import { BULK_BODY_LIMIT, serviceValidated } from './bulk.js';

const HandleParams = Type.Object({ handle: Type.String() });

/** Catalog imports and reads (product.md §8): products, collections, inventory, customers, markets, orders. */
export function catalogRoutes(app: FastifyInstance, deps: { shops: ShopsService; catalog: CatalogService }): void {
  const { shops, catalog } = deps;
  const shopOf = (request: FastifyRequest): Promise<Shop> => shopFor(request, shops, (request.params as { handle: string }).handle);

  const bulk = (path: string, summary: string, row: TSchema, write: (shopId: number, body: unknown) => Promise<object>) => {
    app.put(`/shops/:handle/${path}`, {
      ...serviceValidated,
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        summary: `${summary} (JSON array or NDJSON; all or nothing; 422 names the bad row and field)`,
        tags: ['admin: catalog'],
        params: HandleParams,
        body: Type.Array(row),
      },
    }, async (request) => write((await shopOf(request)).id, request.body));
  };

  bulk('products', 'Upsert products by id', ProductInput, catalog.upsertProducts);
  bulk('collections', 'Upsert collections; replaces each named collection\'s membership', CollectionInput, catalog.upsertCollections);
  bulk('inventory', 'Set variant inventory quantities', InventoryInput, catalog.setInventory);
  bulk('customers', 'Upsert storefront customers', CustomerInput, catalog.upsertCustomers);
  bulk('markets', 'Upsert markets', MarketInput, catalog.upsertMarkets);
  bulk('orders', 'Upsert orders (cancelled ones are kept, never counted)', OrderInput, catalog.upsertOrders);

  app.get('/shops/:handle/products', {
    schema: {
      summary: 'Browse products (search by title, handle or id), or read the products named by ids', tags: ['admin: catalog'], params: HandleParams,
      querystring: Type.Object({
        query: Type.Optional(Type.String()), limit: Type.Optional(Type.String()), page: Type.Optional(Type.String()),
        ids: Type.Optional(Type.String({ description: `comma-separated positive integer ids (at most ${MAX_ID_LIST}): those products, in the order given, unknown ids skipped; query, limit and page then do not apply`, examples: ['3,1,2'] })),
        variant_ids: Type.Optional(Type.String({ description: `comma-separated variant ids (at most ${MAX_ID_LIST}): the products holding them, in the order of their first variant, each once; unknown ids skipped`, examples: ['42000000018'] })),
      }),
    },
  }, async (request) => {
    const q = request.query as { query?: string; limit?: string; page?: string; ids?: string; variant_ids?: string };
    const limit = positive(q.limit, 'limit', 50, 250);
    const page = positive(q.page, 'page', 1, 1_000_000);
    const ids = idList(q, 'ids');
    const { id } = await shopOf(request);
    if (ids) return catalog.productsByIds(id, ids);
    const variantIds = idList(q, 'variant_ids');
    if (variantIds) return catalog.productsByVariantIds(id, variantIds);
    return catalog.listProducts(id, { ...(q.query ? { query: q.query } : {}), limit, page });
  });

  app.delete('/shops/:handle/products/:id', {
    schema: { summary: 'Delete a product', tags: ['admin: catalog'], params: Type.Object({ handle: Type.String(), id: Type.String() }) },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const productId = positive(id, 'id', 0, Number.MAX_SAFE_INTEGER);
    if (!(await catalog.deleteProduct((await shopOf(request)).id, productId))) throw new NotFoundError(`Product ${productId} not found.`);
    return reply.status(204).send();
  });

  app.get('/shops/:handle/collections', { schema: { summary: 'Collections with members', tags: ['admin: catalog'], params: HandleParams } },
    async (request) => ({ data: await catalog.listCollections((await shopOf(request)).id) }));

  app.get('/shops/:handle/markets', { schema: { summary: 'Markets', tags: ['admin: catalog'], params: HandleParams } },
    async (request) => ({ data: await catalog.listMarkets((await shopOf(request)).id) }));
}

function positive(raw: string | undefined, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,16}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new InvalidInputError(name, `Parameter ${name} must be a whole number from 1 to ${max}, got "${raw.slice(0, 40)}".`);
  }
  return Number(raw);
}
