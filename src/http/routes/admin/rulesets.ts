import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidBodyError, InvalidInputError } from '../../../domain/errors.js';
import { customParams } from '../../../domain/params/custom.js';
import { commaListOf, readParams, readsName } from '../../../domain/params/read.js';
import { describeRuleCatalog } from '../../../domain/rules/catalog.js';
import { RulesetInput } from '../../../domain/inputs/ruleset.js';
import { LIST_SOURCES } from '../../../services/lists/sources/index.js';
import type { RecommendationsService } from '../../../services/recommendations/index.js';
import { customRequestOf } from '../../../services/recommendations/params.js';
import type { RulesetsService } from '../../../services/rulesets.js';
import { shopOf } from '../../plugins/request-shop.js';
import { bodyValidatedByService, type ParamsTypeProvider } from '../../plugins/params.js';
import { prettify } from '../../render/products.js';
import { renderCustomAnswer } from '../../render/custom.js';
import { HandleIdPath, HandlePath, PreviewPath } from '../../schemas/admin-params.js';
import { Errors, NoContent } from '../../schemas/errors.js';
import { PreviewResponse } from '../../schemas/custom.js';
import { RuleCatalogSchema, RulesetAnswer, RulesetSchema } from '../../schemas/rules.js';

const tags = ['admin: rulesets'];

/** Preview bodies carry the custom endpoint's parameters; numbers and arrays of ids are accepted as well as strings. */
function previewBody(body: unknown): { raw: Record<string, unknown>; ruleset?: unknown } {
  if (body === undefined || body === null) return { raw: {} };
  if (typeof body !== 'object' || Array.isArray(body))
    throw new InvalidBodyError("The preview body must be a JSON object of the custom endpoint's parameters.");
  const { ruleset, ...fields } = body as Record<string, unknown>;
  const raw: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(fields)) {
    // The storefront's extras are ignored on the public endpoint; here a misspelt input would preview a request
    // the merchant did not mean, so it is named.
    if (!readsName(customParams, name))
      throw new InvalidInputError(name, `Parameter ${name} is not one the custom endpoint reads.`);
    raw[name] = commaListOf(value);
    if (Array.isArray(raw[name]))
      throw new InvalidInputError(name, `Parameter ${name} must be a string, a number, or an array of them.`);
  }
  return { raw, ...(ruleset !== undefined ? { ruleset } : {}) };
}

/** Rulesets (docs/api.md, "Admin API") and the operator catalog the console renders its forms from. */
export function rulesetRoutes(
  app: FastifyInstance,
  deps: { rulesets: RulesetsService; recommendations: RecommendationsService },
): void {
  const { rulesets, recommendations } = deps;
  const api = app.withTypeProvider<ParamsTypeProvider>();

  api.get(
    '/rule-catalog',
    {
      schema: {
        summary: 'Condition types, operators, value kinds and output types',
        tags,
        response: { 200: RuleCatalogSchema, ...Errors },
      },
    },
    async () => describeRuleCatalog([...LIST_SOURCES.keys()]),
  );

  api.get(
    '/shops/:handle/rulesets',
    {
      schema: {
        summary: 'List rulesets',
        tags,
        params: HandlePath,
        response: { 200: Type.Object({ data: Type.Array(RulesetSchema) }), ...Errors },
      },
    },
    async (request) => ({
      data: await rulesets.list(shopOf(request).id),
    }),
  );

  api.post(
    '/shops/:handle/rulesets',
    {
      ...bodyValidatedByService,
      schema: {
        summary: 'Create a ruleset (422 lists each problem with its JSON path)',
        tags,
        params: HandlePath,
        body: RulesetInput,
        response: { 201: RulesetAnswer, ...Errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ ruleset: await rulesets.create(shopOf(request).id, request.body) }),
  );

  api.get(
    '/shops/:handle/rulesets/:id',
    { schema: { summary: 'A ruleset', tags, params: HandleIdPath, response: { 200: RulesetAnswer, ...Errors } } },
    async (request) => ({
      ruleset: await rulesets.get(shopOf(request).id, request.params.id),
    }),
  );

  api.put(
    '/shops/:handle/rulesets/:id',
    {
      ...bodyValidatedByService,
      schema: {
        summary: 'Replace a ruleset',
        tags,
        params: HandleIdPath,
        body: RulesetInput,
        response: { 200: RulesetAnswer, ...Errors },
      },
    },
    async (request) => ({ ruleset: await rulesets.update(shopOf(request).id, request.params.id, request.body) }),
  );

  api.delete(
    '/shops/:handle/rulesets/:id',
    { schema: { summary: 'Delete a ruleset', tags, params: HandleIdPath, response: { 204: NoContent, ...Errors } } },
    async (request, reply) => {
      await rulesets.remove(shopOf(request).id, request.params.id);
      return reply.status(204).send();
    },
  );

  api.post(
    '/shops/:handle/rulesets/:id/preview',
    {
      ...bodyValidatedByService,
      schema: {
        summary:
          "The custom endpoint's answer plus a trace; with `ruleset` in the body, runs that unsaved document instead",
        tags,
        params: PreviewPath,
        body: Type.Object(
          { ruleset: Type.Optional(RulesetInput) },
          { additionalProperties: true, description: "the custom endpoint's parameters as a JSON object" },
        ),
        response: { 200: PreviewResponse, ...Errors },
      },
    },
    async (request, reply) => {
      const { raw, ruleset } = previewBody(request.body);
      const query = readParams(customParams, raw);
      const answer = await recommendations.preview(
        shopOf(request).id,
        request.params.id,
        customRequestOf(query, Date.now()),
        ruleset,
      );
      const body = renderCustomAnswer(answer, query);
      return reply.header('content-type', 'application/json; charset=utf-8').send(query.format ? prettify(body) : body);
    },
  );
}
