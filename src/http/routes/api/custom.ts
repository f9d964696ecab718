import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SharedAnswers } from '../../../cache/shared-answers.js';
import { customParams, subtotalInCurrency, type CustomParams } from '../../../domain/params/custom.js';
import { params } from '../../../domain/params/param.js';
import { paramsKey } from '../../../domain/params/read.js';
import { positiveId } from '../../../domain/params/kinds.js';
import type { ShopSettings } from '../../../domain/shop.js';
import type { ShopCatalog } from '../../../indexes/shop-catalog.js';
import type { Routing } from '../../../domain/experiments/routing.js';
import type { ExperimentsService } from '../../../services/experiments/index.js';
import type { ListsService } from '../../../services/lists/index.js';
import type { RecommendationsService } from '../../../services/recommendations/index.js';
import { customRequestOf } from '../../../services/recommendations/params.js';
import type { AnswerLane } from '../../plugins/answer-lane.js';
import { serveAnswer, type Recompute } from '../../plugins/answers.js';
import type { ParamsTypeProvider } from '../../plugins/params.js';
import { catalogOf } from '../../plugins/request-shop.js';
import { renderCustomAnswer } from '../../render/custom.js';
import { CustomResponse } from '../../schemas/custom.js';
import { Errors } from '../../schemas/errors.js';

const RulesetPath = params({ ruleset_id: positiveId('the ruleset id', { required: true }) });

export interface CustomRouteDeps {
  recommendations: RecommendationsService;
  lists: ListsService;
  experiments: ExperimentsService;
  cache: SharedAnswers;
  /** The shop's settings (its cart_subtotal_unit), at hand once the shop is resident. */
  settings: (shopId: number) => ShopSettings | undefined;
  /** Repeats answers that depend on the URL and the shop's version alone (no customer, no experiment arm). */
  lane?: AnswerLane;
}

const schema = {
  summary: 'Products chosen by a ruleset',
  tags: ['recommendations'],
  params: RulesetPath,
  querystring: customParams,
  response: { 200: CustomResponse, ...Errors },
};

/**
 * A ruleset's answer on any generation of its shop, made here so that the lane's entry holds no
 * request's generation. The routing holds while the shop's version does (an experiment started or
 * stopped is a new version).
 */
function computation(deps: CustomRouteDeps, id: number, query: CustomParams, routing: Routing): Recompute {
  return async (catalog: ShopCatalog, previous?: Buffer) =>
    renderCustomAnswer(
      await deps.recommendations.recommend(catalog, id, customRequestOf(query, Date.now()), routing),
      query,
      previous,
    );
}

/** One answer for the GET and the POST: the same parameters read the same way share one cache entry. */
function answerCustom(deps: CustomRouteDeps) {
  // Not async: a cached answer is sent before the handler returns, with no promise to settle.
  return (request: FastifyRequest, reply: FastifyReply) => {
    const catalog = catalogOf(request);
    const shopId = catalog.shop.id;
    const id = (request.params as { ruleset_id: number }).ruleset_id;
    const query = subtotalInCurrency(request.query as CustomParams, deps.settings(shopId)?.cart_subtotal_unit);
    // An experiment's arm (or a stopped one's winner) is part of the answer's identity: each is cached
    // as its own bytes.
    const routing = deps.experiments.route(shopId, id, query.uuid, query.shop_customer_id);
    const path = routing.arm
      ? `/custom/id/${id}/arm/${routing.arm.experimentId}/${routing.arm.index}`
      : routing.servedId === id
        ? `/custom/id/${id}`
        : `/custom/id/${id}/via/${routing.servedId}`;
    const scope = {
      shopId,
      version: deps.lists.version(catalog),
      path,
      params: paramsKey(customParams, query),
      bust: query.bust_cache,
      pretty: query.format,
      // An arm records its visitor on every request, a customer waits for the signature check: no lane for those.
      lane: routing.arm === null && query.shop_customer_id == null ? deps.lane : undefined,
      recompute: computation(deps, id, query, routing),
    };
    return serveAnswer(deps.cache, request, reply, scope, () => scope.recompute(catalog));
  };
}

/** `GET /api/v1/custom/id/{ruleset_id}`: products chosen by a ruleset (docs/api.md, "Custom"). */
export function customRoute(app: FastifyInstance, deps: CustomRouteDeps): void {
  app
    .withTypeProvider<ParamsTypeProvider>()
    .get('/custom/id/:ruleset_id', { config: { auth: 'public' }, schema }, answerCustom(deps));
}

/**
 * `POST /api/v1/custom/id/{ruleset_id}`: the same answer, parameters in the query string, a JSON
 * or a form body (the platform widget posts when its URL would grow past 32,000 bytes).
 */
export function customPostRoute(app: FastifyInstance, deps: CustomRouteDeps): void {
  app.withTypeProvider<ParamsTypeProvider>().post(
    '/custom/id/:ruleset_id',
    {
      config: { auth: 'public', paramsInBody: true },
      schema: {
        ...schema,
        summary: 'Products chosen by a ruleset (the GET, with the parameters in a body)',
        description:
          'Parameters in the query string; fields of a JSON (the key may be among them) or form-encoded body ' +
          'are read under them.',
      },
    },
    answerCustom(deps),
  );
}
