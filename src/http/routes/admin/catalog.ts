import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../domain/errors.js';
import {
  CollectionInput,
  CustomerInput,
  InventoryInput,
  MarketInput,
  OrderInput,
  ProductInput,
} from '../../../domain/inputs/catalog.js';
import { idList, wholeNumber } from '../../../domain/params/kinds.js';
import { params } from '../../../domain/params/param.js';
import { text } from '../../../domain/params/text-kinds.js';
import type { CatalogService } from '../../../services/catalog.js';
import { shopOf } from '../../plugins/request-shop.js';
import { bodyValidatedByService, type ParamsTypeProvider } from '../../plugins/params.js';
import { HandleIdPath, HandlePath } from '../../schemas/admin-params.js';
import { BULK_BODY_LIMIT } from './bulk.js';
import { Errors, NoContent } from '../../schemas/errors.js';
import {
  CollectionList,
  InventoryUpdated,
  MarketList,
  ProductPage,
  Upserted,
  UpsertedAboutCustomers,
} from '../../schemas/admin.js';

const CollectionsQuery = params({
  limit: wholeNumber('collections per page (a page also ends before 100,000 members in all)', {
    min: 1,
    max: 250,
    fallback: 50,
  }),
  after: wholeNumber("the collections after this id: the last page's `next`", {
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    fallback: 0,
  }),
});

const ProductsQuery = params({
  query: text('search by title, handle or id', { max: 200 }),
  limit: wholeNumber('products per page', { min: 1, max: 250, fallback: 50 }),
  page: wholeNumber('page, from 1', { min: 1, max: 1_000_000, fallback: 1 }),
  ids: idList('those products, in the order given, unknown ids skipped; query, limit and page then do not apply'),
  variant_ids: idList(
    'the products holding these variants, in the order of their first variant, each once; unknown ids skipped',
  ),
});

/**
 * Catalog imports and reads (docs/api.md, "Admin API"): products, collections, inventory, customers, markets, orders.
 */
export function catalogRoutes(app: FastifyInstance, deps: { catalog: CatalogService }): void {
  const { catalog } = deps;
  const api = app.withTypeProvider<ParamsTypeProvider>();

  const bulk = (
    path: string,
    summary: string,
    row: TSchema,
    answer: TSchema,
    write: (shopId: number, body: unknown) => Promise<object>,
  ) => {
    api.put(
      `/shops/:handle/${path}`,
      {
        ...bodyValidatedByService,
        bodyLimit: BULK_BODY_LIMIT,
        schema: {
          summary: `${summary} (JSON array or NDJSON; all or nothing; 422 names the bad row and field)`,
          tags: ['admin: catalog'],
          params: HandlePath,
          body: Type.Array(row),
          response: { 200: answer, ...Errors },
        },
      },
      async (request) => write(shopOf(request).id, request.body),
    );
  };

  bulk('products', 'Upsert products by id', ProductInput, Upserted, catalog.upsertProducts);
  bulk(
    'collections',
    "Upsert collections; replaces each named collection's membership",
    CollectionInput,
    Upserted,
    catalog.upsertCollections,
  );
  bulk('inventory', 'Set variant inventory quantities', InventoryInput, InventoryUpdated, catalog.setInventory);
  bulk('customers', 'Upsert storefront customers', CustomerInput, UpsertedAboutCustomers, catalog.upsertCustomers);
  bulk('markets', 'Upsert markets', MarketInput, Upserted, catalog.upsertMarkets);
  bulk(
    'orders',
    'Upsert orders (cancelled ones are kept, never counted)',
    OrderInput,
    UpsertedAboutCustomers,
    catalog.upsertOrders,
  );

  api.get(
    '/shops/:handle/products',
    {
      schema: {
        summary: 'Browse products (search by title, handle or id), or read the products named by ids',
        tags: ['admin: catalog'],
        params: HandlePath,
        querystring: ProductsQuery,
        response: { 200: ProductPage, ...Errors },
      },
    },
    async (request) => {
      const { query, limit, page, ids, variant_ids: variantIds } = request.query;
      const { id } = shopOf(request);
      if (ids) return catalog.productsByIds(id, ids);
      if (variantIds) return catalog.productsByVariantIds(id, variantIds);
      return catalog.listProducts(id, { ...(query ? { query } : {}), limit, page });
    },
  );

  api.delete(
    '/shops/:handle/products/:id',
    {
      schema: {
        summary: 'Delete a product',
        tags: ['admin: catalog'],
        params: HandleIdPath,
        response: { 204: NoContent, ...Errors },
      },
    },
    async (request, reply) => {
      const productId = request.params.id;
      if (!(await catalog.deleteProduct(shopOf(request).id, productId)))
        throw new NotFoundError(`Product ${productId} not found.`);
      return reply.status(204).send();
    },
  );

  api.get(
    '/shops/:handle/collections',
    {
      schema: {
        summary: 'Collections with members, a page at a time in id order',
        tags: ['admin: catalog'],
        params: HandlePath,
        querystring: CollectionsQuery,
        response: { 200: CollectionList, ...Errors },
      },
    },
    async (request) => catalog.listCollections(shopOf(request).id, request.query),
  );

  api.get(
    '/shops/:handle/markets',
    {
      schema: {
        summary: 'Markets',
        tags: ['admin: catalog'],
        params: HandlePath,
        response: { 200: MarketList, ...Errors },
      },
    },
    async (request) => ({
      data: await catalog.listMarkets(shopOf(request).id),
    }),
  );
}
