import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { SharedAnswers } from '../../../cache/shared-answers.js';
import type { ProductsService } from '../../../services/products.js';
import type { RecommendationsService } from '../../../services/recommendations/index.js';
import { parseCustomQuery, parseRulesetId } from '../../../services/recommendations/params.js';
import type { Query } from '../../../services/params.js';
import { serveAnswer } from '../../plugins/answers.js';
import { CustomQuery, CustomResponse } from '../../schemas/custom.js';

/** `GET /api/v1/custom/id/{ruleset_id}`: products chosen by a ruleset (seed §1). */
export function customRoute(app: FastifyInstance, deps: { recommendations: RecommendationsService; products: ProductsService; cache: SharedAnswers }): void {
  app.get('/custom/id/:ruleset_id', {
    config: { auth: 'public' },
    schema: {
      summary: 'Products chosen by a ruleset',
      tags: ['recommendations'],
      params: Type.Object({ ruleset_id: Type.String({ description: 'the ruleset id, a positive integer' }) }),
      querystring: CustomQuery,
      response: { 200: CustomResponse, '4xx': { $ref: 'Error#' } },
    },
  }, async (request, reply) => {
    const shopId = request.apiKey!.shopId;
    await deps.products.settled(shopId);
    return serveAnswer(deps.cache, request, reply, { shopId, version: deps.products.version(shopId) }, async () => {
      const id = parseRulesetId((request.params as { ruleset_id: string }).ruleset_id);
      const custom = parseCustomQuery(request.query as Query, Date.now());
      return { body: await deps.recommendations.recommend(shopId, id, custom), pretty: custom.options.pretty };
    });
  });
}
