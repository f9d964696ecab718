import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { onetimeParams, reactivateParams, subscribeParams } from '../../../domain/params/billing.js';
import type { OnetimeService } from '../../../services/billing/onetime.js';
import { onetimeRequestOf } from '../../../services/billing/onetime.js';
import { reactivateParamsOf } from '../../../services/billing/params.js';
import type { ReactivationService } from '../../../services/billing/reactivation.js';
import type { ShopsService } from '../../../services/shops.js';
import { subscribeRequestOf, type SubscribeService } from '../../../services/billing/subscribe.js';
import type { ParamsTypeProvider } from '../../plugins/params.js';
import { prettify } from '../../render/products.js';
import { OnetimeCreated, PaymentFailed, ReactivationContextAnswer, SubscriptionCreated } from '../../schemas/billing.js';
import { Errors } from '../../schemas/errors.js';

const IdempotencyHeader = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'same key and parameters: the first answer again; other parameters: 409' })),
});

function json(body: unknown, pretty: boolean): Buffer {
  const bytes = Buffer.from(JSON.stringify(body));
  return pretty ? prettify(bytes) : bytes;
}

/** The billing endpoints (docs/billing.md): private key only. */
export function billingRoutes(
  fastify: FastifyInstance,
  deps: { shops: ShopsService; reactivation: ReactivationService; onetime: OnetimeService; subscribe: SubscribeService },
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
      const shop = await deps.shops.requireShopById(request.apiKey!.shopId);
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
        description: 'Parameters in the query string; fields of a JSON, form-encoded, text/plain (JSON) or multipart body are read under them.',
        tags: ['billing'],
        querystring: onetimeParams,
        headers: IdempotencyHeader,
        response: { 201: OnetimeCreated, 402: PaymentFailed, ...Errors },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const shop = await deps.shops.requireShopById(request.apiKey!.shopId);
      const outcome = await deps.onetime.create(shop, onetimeRequestOf(query), request.headers['idempotency-key'] ?? null);
      if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
      // A refused card is an answer, not an error: the charge is recorded as ERROR and shown.
      const [status, answer] =
        outcome.kind === 'created'
          ? [201, { data: { onetime: outcome.onetime, charge: outcome.charge, order: outcome.order } }]
          : [402, { error: outcome.message, charge: outcome.charge }];
      return reply.status(status).header('content-type', 'application/json; charset=utf-8').send(json(answer, query.format));
    },
  );

  app.post(
    '/billing/subscribe',
    {
      config: { auth: 'private', paramsInBody: true },
      schema: {
        summary: 'Create an ACTIVE subscription on a billing address (Idempotency-Key makes retries safe)',
        description: 'Parameters in the query string; fields of a JSON, form-encoded, text/plain (JSON) or multipart body are read under them.',
        tags: ['billing'],
        querystring: subscribeParams,
        headers: IdempotencyHeader,
        response: { 200: SubscriptionCreated, ...Errors },
      },
    },
    async (request, reply) => {
      const shop = await deps.shops.requireShopById(request.apiKey!.shopId);
      const outcome = await deps.subscribe.subscribe(shop, subscribeRequestOf(request.query), request.headers['idempotency-key'] ?? null);
      if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
      return reply.header('content-type', 'application/json; charset=utf-8').send(json({ data: outcome.subscription }, request.query.format));
    },
  );
}
