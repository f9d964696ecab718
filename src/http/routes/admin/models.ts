import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { BASES, SAR_SIMILARITIES } from '../../../domain/models/sar.js';
import { positiveId, wholeNumber } from '../../../domain/params/kinds.js';
import { params } from '../../../domain/params/param.js';
import { oneOf } from '../../../domain/params/text-kinds.js';
import { SIMILAR_DEFAULTS, type ModelsService } from '../../../services/models.js';
import { shopOf } from '../../plugins/request-shop.js';
import type { ParamsTypeProvider } from '../../plugins/params.js';
import { HandlePath } from '../../schemas/admin-params.js';
import { Errors } from '../../schemas/errors.js';

const SimilarQuery = params({
  product_id: positiveId('the product whose neighbours are wanted (required)', { required: true }),
  similarity: oneOf(
    SAR_SIMILARITIES,
    'count = c_ij; jaccard = c_ij / (c_ii + c_jj − c_ij); lift = c_ij / (c_ii · c_jj)',
    {
      fallback: SIMILAR_DEFAULTS.similarity,
    },
  ),
  support_threshold: wholeNumber('pairs with c_ij below it score 0 (the diagonal too)', {
    min: 1,
    max: 1_000_000,
    fallback: SIMILAR_DEFAULTS.supportThreshold,
  }),
  basis: oneOf(BASES, 'who a user (a row of A) is', { fallback: SIMILAR_DEFAULTS.basis }),
  limit: wholeNumber('neighbours', { min: 1, max: 100, fallback: SIMILAR_DEFAULTS.limit }),
});

const SimilarResponse = Type.Object({
  data: Type.Array(
    Type.Object({
      product_id: Type.Integer(),
      score: Type.Number({ description: 'the similarity s_ij' }),
      co_occurrences: Type.Integer({ description: 'c_ij: users who bought both, before any threshold' }),
    }),
    { description: 'neighbours by score descending, then product id; the product itself and zero scores left out' },
  ),
  model: Type.Object({
    built_at: Type.String({ description: 'RFC 3339: when the orders were read' }),
    users: Type.Integer({ description: 'distinct users under the basis' }),
    products: Type.Integer({ description: 'distinct products they bought' }),
  }),
});

const StatusResponse = Type.Object({
  data: Type.Union(
    [
      Type.Null(),
      Type.Object({
        built_at: Type.String({ description: 'RFC 3339' }),
        stamp: Type.String({
          description: 'the data it was built from (data version and event count): equal on every node for equal data',
        }),
        build_ms: Type.Integer(),
        bytes: Type.Integer({ description: 'memory held by the model' }),
        products: Type.Integer(),
        neighbours: Type.Integer({ description: 'neighbour entries kept, all products together' }),
        customers: Type.Integer(),
        order_lines: Type.Integer(),
        orders: Type.Integer(),
        views: Type.Integer(),
        viewed_products: Type.Integer(),
        rebuild_pending: Type.Boolean({
          description:
            'a write since this build is waiting out REBOUND_MODEL_DEBOUNCE_S ' +
            'or being built: wait for false to score fresh lists',
        }),
      }),
    ],
    { description: 'null until the first build is in (asking starts it)' },
  ),
});

/** Inspection of the learned model: its status, and its raw material's SAR similarities of one product, exactly. */
export function modelRoutes(fastify: FastifyInstance, deps: { models: ModelsService }): void {
  const app = fastify.withTypeProvider<ParamsTypeProvider>();
  app.get(
    '/shops/:handle/models/status',
    {
      schema: {
        summary: "The model serving the shop's recommended, for_you and viewed_together lists",
        tags: ['admin: models'],
        params: HandlePath,
        response: { 200: StatusResponse, ...Errors },
      },
    },
    async (request) => {
      const shop = shopOf(request);
      return { data: deps.models.status(shop.id) };
    },
  );

  app.get(
    '/shops/:handle/models/similar',
    {
      schema: {
        summary:
          "A product's neighbours by SAR similarity, on all of the shop's " +
          'orders as they are now (cancelled orders never count)',
        tags: ['admin: models'],
        params: HandlePath,
        querystring: SimilarQuery,
        response: { 200: SimilarResponse, ...Errors },
      },
    },
    async (request) => {
      const shop = shopOf(request);
      const { product_id: productId, similarity, support_threshold: threshold, basis, limit } = request.query;
      return deps.models.similar(shop.id, { productId, similarity, threshold, basis, limit });
    },
  );
}
