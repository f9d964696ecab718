import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ExperimentInput, StopExperimentInput } from '../../../domain/inputs/experiment.js';
import { wholeNumber } from '../../../domain/params/kinds.js';
import { params } from '../../../domain/params/param.js';
import type { AttributionService } from '../../../services/attribution.js';
import type { ExperimentsService } from '../../../services/experiments/index.js';
import { shopOf } from '../../plugins/request-shop.js';
import { bodyValidatedByService, type ParamsTypeProvider } from '../../plugins/params.js';
import { HandleIdPath, HandlePath } from '../../schemas/admin-params.js';
import {
  AttributionAnswer,
  ExperimentAnswer,
  ExperimentSchema,
  ResultsAnswer,
  SeriesAnswer,
} from '../../schemas/experiments.js';
import { Errors } from '../../schemas/errors.js';

const tags = ['admin: experiments'];
const DaysQuery = params({ days: wholeNumber('days back from today (UTC)', { min: 1, max: 365, fallback: 30 }) });

/** Experiments and attributed figures (docs/attribution.md); the paths are fixed, tools rely on them. */
export function experimentRoutes(
  app: FastifyInstance,
  deps: { experiments: ExperimentsService; attribution: AttributionService },
): void {
  const { experiments } = deps;
  const api = app.withTypeProvider<ParamsTypeProvider>();

  api.post(
    '/shops/:handle/experiments',
    {
      ...bodyValidatedByService,
      schema: {
        summary: "Start an experiment: a ruleset's visitors split between arms by weight",
        tags,
        params: HandlePath,
        body: ExperimentInput,
        response: { 201: ExperimentAnswer, ...Errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ experiment: await experiments.create(shopOf(request).id, request.body) }),
  );

  api.get(
    '/shops/:handle/experiments',
    {
      schema: {
        summary: 'Every experiment, newest first',
        tags,
        params: HandlePath,
        response: { 200: Type.Object({ data: Type.Array(ExperimentSchema) }), ...Errors },
      },
    },
    async (request) => ({ data: await experiments.list(shopOf(request).id) }),
  );

  api.get(
    '/shops/:handle/experiments/:id',
    {
      schema: { summary: 'An experiment', tags, params: HandleIdPath, response: { 200: ExperimentAnswer, ...Errors } },
    },
    async (request) => ({ experiment: await experiments.get(shopOf(request).id, request.params.id) }),
  );

  api.post(
    '/shops/:handle/experiments/:id/stop',
    {
      ...bodyValidatedByService,
      schema: {
        summary: "Stop an experiment; the winner's ruleset serves the ruleset's requests from now on",
        tags,
        params: HandleIdPath,
        body: StopExperimentInput,
        response: { 200: ExperimentAnswer, ...Errors },
      },
    },
    async (request) => ({ experiment: await experiments.stop(shopOf(request).id, request.params.id, request.body) }),
  );

  api.get(
    '/shops/:handle/experiments/:id/results',
    {
      schema: {
        summary: "Each arm's figures with 95% intervals and the probability of beating the first arm",
        tags,
        params: HandleIdPath,
        response: { 200: ResultsAnswer, ...Errors },
      },
    },
    async (request) => experiments.results(shopOf(request).id, request.params.id),
  );

  api.get(
    '/shops/:handle/experiments/:id/series',
    {
      schema: {
        summary: 'Cumulative figures per day and arm (the chart over time)',
        tags,
        params: HandleIdPath,
        response: { 200: SeriesAnswer, ...Errors },
      },
    },
    async (request) => experiments.series(shopOf(request).id, request.params.id),
  );

  api.get(
    '/shops/:handle/attribution',
    {
      schema: {
        summary: 'Attributed impressions, clicks, add-to-carts, orders and revenue per ruleset and list',
        tags,
        params: HandlePath,
        querystring: DaysQuery,
        response: { 200: AttributionAnswer, ...Errors },
      },
    },
    async (request) => deps.attribution.summary(shopOf(request).id, request.query.days),
  );
}
