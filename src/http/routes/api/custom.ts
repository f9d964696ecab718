import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RecommendationsService } from '../../../services/recommendations/index.js';
import { parseCustomQuery, parseRulesetId } from '../../../services/recommendations/params.js';
import type { Query } from '../../../services/params.js';
import { sendJson } from '../../reply.js';
import { CustomQuery, CustomResponse } from '../../schemas/custom.js';

/** `GET /api/v1/custom/id/{ruleset_id}`: products chosen by a ruleset (seed §1). */
export function customRoute(app: FastifyInstance, recommendations: RecommendationsService): void {
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
    const id = parseRulesetId((request.params as { ruleset_id: string }).ruleset_id);
    const custom = parseCustomQuery(request.query as Query, Date.now());
    return sendJson(reply, recommendations.recommend(request.apiKey!.shopId, id, custom), custom.options.pretty);
  });
}
