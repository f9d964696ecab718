import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { SharedAnswers } from '../../../cache/shared-answers.js';
import { paramsKey } from '../../../domain/params/read.js';
import { LIST_SOURCES, type ListParams, type ListSource } from '../../../services/lists/sources/index.js';
import type { ShopCatalog } from '../../../indexes/shop-catalog.js';
import type { ListsService } from '../../../services/lists/index.js';
import type { AnswerLane } from '../../plugins/answer-lane.js';
import { serveAnswer, type Recompute } from '../../plugins/answers.js';
import type { ParamsTypeProvider } from '../../plugins/params.js';
import { catalogOf } from '../../plugins/request-shop.js';
import { renderList } from '../../render/products.js';
import { Errors } from '../../schemas/errors.js';

const WithMetadata = Type.Object({
  data: Type.Array(Type.Ref('Product')),
  metadata: Type.Object({
    source: Type.String({
      description: 'list:<name>: which answer this is (docs/attribution.md)',
      examples: ['list:trending_products'],
    }),
    purchased_quantity: Type.Optional(
      Type.Record(Type.String(), Type.Integer(), {
        description: '/products/purchased: units the customer bought, by product id',
      }),
    ),
  }),
});

/** A list's answer on any generation of its shop; made here so that the lane's entry holds no request's generation. */
function computation(lists: ListsService, source: ListSource, params: ListParams): Recompute {
  return async (catalog: ShopCatalog, previous?: Buffer) =>
    renderList(await lists.list(catalog, source, params), params, previous);
}

/** The list's query schema with what its own path requires marked required: the same decoders, documented. */
function onItsPath(source: ListSource): ListSource['schema'] {
  if (source.requiredOnPath.length === 0) return source.schema;
  const required = [...(source.schema.required ?? []), ...source.requiredOnPath];
  return { ...source.schema, required } as ListSource['schema'];
}

/** Every list endpoint (docs/lists.md), each from its declared source, with cached answers. */
export function listRoutes(
  app: FastifyInstance,
  deps: { lists: ListsService; cache: SharedAnswers; lane?: AnswerLane },
): void {
  const api = app.withTypeProvider<ParamsTypeProvider>();
  for (const source of LIST_SOURCES.values()) {
    api.get(
      source.path,
      {
        config: { auth: 'public', listSource: true },
        schema: {
          summary: source.summary,
          tags: ['products'],
          ...(source.path === '/products/search' ? { deprecated: true } : {}),
          querystring: onItsPath(source),
          response: { 200: WithMetadata, ...Errors },
        },
      },
      // Not async: a cached answer is sent before the handler returns, with no promise to settle.
      (request, reply) => {
        const catalog = catalogOf(request);
        const params = request.query;
        const scope = {
          shopId: catalog.shop.id,
          version: deps.lists.version(catalog),
          path: source.path,
          params: paramsKey(source.schema, params),
          bust: params.bust_cache,
          pretty: params.format,
          cacheable: source.cacheable(params),
          // A customer's answer waits for the signature check on every request: the lane does not repeat it.
          lane: (params as { shop_customer_id?: unknown }).shop_customer_id == null ? deps.lane : undefined,
          recompute: computation(deps.lists, source, params),
        };
        return serveAnswer(deps.cache, request, reply, scope, () => scope.recompute(catalog));
      },
    );
  }
}
