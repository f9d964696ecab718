import { Type, type TProperties } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { SharedAnswers } from '../../../cache/shared-answers.js';
import { LIST_SOURCES } from '../../../services/lists/sources/index.js';
import type { Query } from '../../../services/params.js';
import type { ProductsService } from '../../../services/products.js';
import { serveAnswer } from '../../plugins/answers.js';
import { sendJson } from '../../reply.js';
import { CommonQuery, KeyParam, limitParam, ListFilterQuery } from '../../schemas/common.js';
import { ProductListResponse } from '../../schemas/product.js';

/** The query schema of a list: its own parameters, then the common ones and the list filters. */
export function listQuerySchema(own: Record<string, string>, limits: { fallback: number; max: number }) {
  const props: TProperties = { ...KeyParam };
  for (const [name, description] of Object.entries(own)) props[name] = Type.Optional(Type.String({ description }));
  return Type.Object({ ...props, ...CommonQuery, ...limitParam(limits.fallback, limits.max), ...ListFilterQuery });
}

/** Every list endpoint of product.md §5, each from its declared source, with cached answers. */
export function listRoutes(app: FastifyInstance, deps: { products: ProductsService; cache: SharedAnswers }): void {
  for (const source of LIST_SOURCES.values()) {
    app.get(source.path, {
      config: { auth: 'public', listSource: true },
      schema: {
        summary: source.summary,
        tags: ['products'],
        ...(source.path === '/products/search' ? { deprecated: true } : {}),
        querystring: listQuerySchema(source.params, source.limits),
        response: { 200: source.metadata ? Type.Object({ data: Type.Array(Type.Ref('Product')), metadata: Type.Object({}, { additionalProperties: true }) }) : ProductListResponse, '4xx': { $ref: 'Error#' } },
      },
    }, async (request, reply) => {
      const shopId = request.apiKey!.shopId;
      await deps.products.settled(shopId);
      if (source.uncached) {
        const { body, pretty } = await deps.products.list(shopId, source, request.query as Query);
        return sendJson(reply, body, pretty);
      }
      return serveAnswer(deps.cache, request, reply, { shopId, version: deps.products.version(shopId) },
        () => deps.products.list(shopId, source, request.query as Query));
    });
  }
}
