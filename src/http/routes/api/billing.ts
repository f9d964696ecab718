import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../../domain/errors.js';
import {
  idempotencyHeaders,
  onetimeParams,
  reactivateParams,
  subscribeParams,
} from '../../../domain/params/billing.js';
import type { OnetimeService } from '../../../services/billing/onetime.js';
import { onetimeRequestOf, reactivateParamsOf, subscribeRequestOf } from '../../../services/billing/params.js';
import type { ReactivationService } from '../../../services/billing/reactivation.js';
import type { SubscribeService } from '../../../services/billing/subscribe.js';
import type { ParamsTypeProvider } from '../../plugins/params.js';
import { catalogOf } from '../../plugins/request-shop.js';
import { prettify } from '../../render/products.js';
import {
  OnetimeCreated,
  PaymentFailed,
  ReactivationContextAnswer,
  SubscriptionCreated,
} from '../../schemas/billing.js';
import { Errors } from '../../schemas/errors.js';

function json(body: unknown, pretty: boolean): Buffer {
  const bytes = Buffer.from(JSON.stringify(body));
  return pretty ? prettify(bytes) : bytes;
}

/** The billing endpoints (docs/billing.md): private key only. */
export function billingRoutes(
  fastify: FastifyInstance,
  deps: { reactivation: ReactivationService; onetime: OnetimeService; subscribe: SubscribeService },
): void {
  const app = fastify.withTypeProvider<ParamsTypeProvider>();
  app.get(
    '/billing/reactivate',
    {
      config: { auth: 'private' },
      schema: {
        summary: 'Reactivation context: the customer, cancelled subscriptions and signed one-click links',
        tags: ['billing'],
        querystring: reactivateParams,
        response: { 200: ReactivationContextAnswer, ...Errors },
      },
    },
    async (request, reply) => {
      const shop = catalogOf(request).shop;
      const data = await deps.reactivation.context(shop, reactivateParamsOf(request.query));
      return reply.header('content-type', 'application/json; charset=utf-8').send(json({ data }, request.query.format));
    },
  );

  app.post(
    '/billing/onetime',
    {
      config: { auth: 'private', paramsInBody: true },
      schema: {
        summary: 'Create a one-time purchase on a subscription address (Idempotency-Key makes retries safe)',
        description:
          'Parameters in the query string; fields of a JSON, form-encoded, ' +
          'text/plain (JSON) or multipart body are read under them.',
        tags: ['billing'],
        querystring: onetimeParams,
        headers: idempotencyHeaders,
        response: { 201: OnetimeCreated, 402: PaymentFailed, ...Errors },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const shop = catalogOf(request).shop;
      const outcome = await deps.onetime.create(shop, onetimeRequestOf(query), request.headers['idempotency-key']);
      if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
      // A refused card is an answer, not an error: the charge is recorded as ERROR and shown.
      const [status, answer] =
        outcome.kind === 'created'
          ? [201, { data: { onetime: outcome.onetime, charge: outcome.charge, order: outcome.order } }]
          : [402, { ...errorBody('payment_failed', outcome.message), charge: outcome.charge }];
      return reply
        .status(status)
        .header('content-type', 'application/json; charset=utf-8')
        .send(json(answer, query.format));
    },
  );

  app.post(
    '/billing/subscribe',
    {
      config: { auth: 'private', paramsInBody: true },
      schema: {
        summary: 'Create an ACTIVE subscription on a billing address (Idempotency-Key makes retries safe)',
        description:
          'Parameters in the query string; fields of a JSON, form-encoded, ' +
          'text/plain (JSON) or multipart body are read under them.',
        tags: ['billing'],
        querystring: subscribeParams,
        headers: idempotencyHeaders,
        response: { 200: SubscriptionCreated, ...Errors },
      },
    },
    async (request, reply) => {
      const shop = catalogOf(request).shop;
      const outcome = await deps.subscribe.subscribe(
        shop,
        subscribeRequestOf(request.query),
        request.headers['idempotency-key'],
      );
      if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .send(json({ data: outcome.subscription }, request.query.format));
    },
  );
}
