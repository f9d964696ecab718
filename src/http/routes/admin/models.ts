import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { SIMILAR_DEFAULTS, type ModelsService } from '../../../services/models.js';
import type { Query } from '../../../services/params.js';
import type { ShopsService } from '../../../services/shops.js';
import { shopFor } from '../../plugins/admin-auth.js';

const text = (description: string, examples: string[]) => Type.Optional(Type.String({ description, examples }));

const SimilarQuery = Type.Object({
  product_id: Type.String({ description: 'the product whose neighbours are wanted (required)', examples: ['1001'] }),
  similarity: text(`count = c_ij; jaccard = c_ij / (c_ii + c_jj − c_ij); lift = c_ij / (c_ii · c_jj); default ${SIMILAR_DEFAULTS.similarity}`, ['jaccard']),
  support_threshold: text(`pairs with c_ij below it score 0 (the diagonal too); whole number, default ${SIMILAR_DEFAULTS.supportThreshold}`, ['1']),
  basis: text(`who a user (a row of A) is: customer or order; default ${SIMILAR_DEFAULTS.basis}`, ['customer']),
  limit: text(`1-100, default ${SIMILAR_DEFAULTS.limit}`, ['20']),
});

const SimilarResponse = Type.Object({
  data: Type.Array(Type.Object({
    product_id: Type.Integer(),
    score: Type.Number({ description: 'the similarity s_ij' }),
    co_occurrences: Type.Integer({ description: 'c_ij: users who bought both, before any threshold' }),
  }), { description: 'neighbours by score descending, then product id; the product itself and zero scores left out' }),
  model: Type.Object({
    built_at: Type.String({ description: 'RFC 3339: when the orders were read' }),
    users: Type.Integer({ description: 'distinct users under the basis' }),
    products: Type.Integer({ description: 'distinct products they bought' }),
  }),
});

const StatusResponse = Type.Object({
  data: Type.Union([Type.Null(), Type.Object({
    built_at: Type.String({ description: 'RFC 3339' }),
    stamp: Type.String({ description: 'the data it was built from (data version and event count): equal on every node for equal data' }),
    build_ms: Type.Integer(), bytes: Type.Integer({ description: 'memory held by the model' }),
    products: Type.Integer(), neighbours: Type.Integer({ description: 'neighbour entries kept, all products together' }), customers: Type.Integer(),
    order_lines: Type.Integer(), orders: Type.Integer(), views: Type.Integer(), viewed_products: Type.Integer(),
  })], { description: 'null until the first build is in (asking starts it)' }),
});

/** Inspection of the learned model: its status, and its raw material's SAR similarities of one product, exactly. */
export function modelRoutes(app: FastifyInstance, deps: { shops: ShopsService; models: ModelsService }): void {
  app.get('/shops/:handle/models/status', {
    schema: { summary: 'The model serving the shop\'s recommended, for_you and viewed_together lists', tags: ['admin: models'], params: Type.Object({ handle: Type.String() }), response: { 200: StatusResponse } },
  }, async (request) => {
    const shop = await shopFor(request, deps.shops, (request.params as { handle: string }).handle);
    return { data: deps.models.status(shop.id) };
  });

  app.get('/shops/:handle/models/similar', {
    schema: {
      summary: 'A product\'s neighbours by SAR similarity, on all of the shop\'s orders as they are now (cancelled orders never count)',
      tags: ['admin: models'],
      params: Type.Object({ handle: Type.String() }),
      querystring: SimilarQuery,
      response: { 200: SimilarResponse },
    },
  }, async (request) => {
    const shop = await shopFor(request, deps.shops, (request.params as { handle: string }).handle);
    return deps.models.similar(shop.id, request.query as Query);
  });
}
