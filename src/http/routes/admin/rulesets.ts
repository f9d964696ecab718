import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidInputError } from '../../../domain/errors.js';
import { describeRuleCatalog } from '../../../domain/rules/catalog.js';
import { RulesetInput } from '../../../domain/inputs/ruleset.js';
import { LIST_SOURCES } from '../../../services/lists/sources/index.js';
import type { Query } from '../../../services/params.js';
import type { RecommendationsService } from '../../../services/recommendations/index.js';
import { parseCustomQuery, parseRulesetId } from '../../../services/recommendations/params.js';
import type { RulesetsService } from '../../../services/rulesets.js';
import type { ShopsService } from '../../../services/shops.js';
import { shopFor } from '../../plugins/admin-auth.js';
import { sendJson } from '../../reply.js';
import { serviceValidated } from './bulk.js';

const Params = Type.Object({ handle: Type.String(), id: Type.String() });
const HandleParams = Type.Object({ handle: Type.String() });
const tags = ['admin: rulesets'];

/** Preview bodies carry the custom endpoint's parameters; numbers are accepted as well as strings. */
function previewQuery(body: unknown): { query: Query; ruleset?: unknown } {
  if (body === undefined || body === null) return { query: {} };
  if (typeof body !== 'object' || Array.isArray(body)) throw new InvalidInputError('body', 'The preview body must be a JSON object of the custom endpoint\'s parameters.');
  const { ruleset, ...params } = body as Record<string, unknown>;
  const query: Query = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) query[name] = value.join(',');
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') query[name] = String(value);
    else throw new InvalidInputError(name, `Preview parameter ${name} must be a string or a number.`);
  }
  return { query, ...(ruleset !== undefined ? { ruleset } : {}) };
}

/** Rulesets (product.md §8) and the operator catalog the console renders its forms from. */
export function rulesetRoutes(app: FastifyInstance, deps: { shops: ShopsService; rulesets: RulesetsService; recommendations: RecommendationsService }): void {
  const { shops, rulesets, recommendations } = deps;
  const shopId = async (request: FastifyRequest) => (await shopFor(request, shops, (request.params as { handle: string }).handle)).id;
  const idOf = (request: FastifyRequest) => parseRulesetId((request.params as { id: string }).id);

  app.get('/rule-catalog', { schema: { summary: 'Condition types, operators, value kinds and output types', tags } },
    async () => describeRuleCatalog([...LIST_SOURCES.keys()]));

  app.get('/shops/:handle/rulesets', { schema: { summary: 'List rulesets', tags, params: HandleParams } },
    async (request) => ({ data: await rulesets.list(await shopId(request)) }));

  app.post('/shops/:handle/rulesets', { ...serviceValidated, schema: { summary: 'Create a ruleset (422 lists each problem with its JSON path)', tags, params: HandleParams, body: RulesetInput } },
    async (request, reply) => reply.status(201).send({ ruleset: await rulesets.create(await shopId(request), request.body) }));

  app.get('/shops/:handle/rulesets/:id', { schema: { summary: 'A ruleset', tags, params: Params } },
    async (request) => ({ ruleset: await rulesets.get(await shopId(request), idOf(request)) }));

  app.put('/shops/:handle/rulesets/:id', { ...serviceValidated, schema: { summary: 'Replace a ruleset', tags, params: Params, body: RulesetInput } },
    async (request) => ({ ruleset: await rulesets.update(await shopId(request), idOf(request), request.body) }));

  app.delete('/shops/:handle/rulesets/:id', { schema: { summary: 'Delete a ruleset', tags, params: Params } }, async (request, reply) => {
    await rulesets.remove(await shopId(request), idOf(request));
    return reply.status(204).send();
  });

  app.post('/shops/:handle/rulesets/:id/preview', {
    ...serviceValidated,
    schema: {
      summary: 'The custom endpoint\'s answer plus a trace; with `ruleset` in the body, runs that unsaved document instead',
      tags,
      params: Params,
      body: Type.Object({ ruleset: Type.Optional(RulesetInput) }, { additionalProperties: true, description: 'the custom endpoint\'s parameters as a JSON object' }),
    },
  }, async (request, reply) => {
    const id = previewRulesetId(request);
    const { query, ruleset } = previewQuery(request.body);
    const custom = parseCustomQuery(query, Date.now());
    const body = await recommendations.preview(await shopId(request), id, custom, ruleset);
    return sendJson(reply, body, custom.options.pretty);
  });
}

/** The path id of a preview: `new` (or 0) previews an unsaved ruleset. */
function previewRulesetId(request: FastifyRequest): number | null {
  const raw = (request.params as { id: string }).id;
  return raw === 'new' || raw === '0' ? null : parseRulesetId(raw);
}
