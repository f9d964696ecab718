import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidInputError } from '../../../domain/errors.js';
import type { ResponseCache } from '../../../cache/response-cache.js';
import type { ProductsService } from '../../../services/products.js';
import { idList, listParams, stringList, type Query } from '../../../services/params.js';
import { serveAnswer } from '../../plugins/answers.js';
import { CommonQuery, idListParam, KeyParam, limitParam, ListFilterQuery } from '../../schemas/common.js';
import { ProductListResponse } from '../../schemas/product.js';

export const StaticQuery = Type.Object({
  ...KeyParam,
  ids: idListParam('products to return, in this order'),
  handles: Type.Optional(Type.String({ description: 'comma-separated product handles (at most 250), after the ids' })),
  ...CommonQuery,
  ...limitParam(5, 100),
  ...ListFilterQuery,
});

/** `GET /api/v1/products/static`: products by id and handle, in the order given. */
export function staticProductsRoute(app: FastifyInstance, products: ProductsService, cache: ResponseCache): void {
  app.get('/products/static', {
    config: { auth: 'public' },
    schema: {
      summary: 'Products by id and / or handle, in the order given',
      tags: ['products'],
      querystring: StaticQuery,
      response: { 200: ProductListResponse, '4xx': { $ref: 'Error#' } },
    },
  }, async (request, reply) => {
    const shopId = request.apiKey!.shopId;
    return serveAnswer(cache, request, reply, { shopId, version: products.version(shopId) }, () => {
      const query = request.query as Query;
      const ids = idList(query, 'ids');
      const handles = stringList(query, 'handles');
      const options = listParams(query);
      if (!ids && !handles) throw new InvalidInputError('ids', 'Missing required endpoint argument: ids or handles.');
      return { body: products.staticProducts(shopId, { ids, handles, options }), pretty: options.pretty };
    });
  });
}
