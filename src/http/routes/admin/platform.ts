import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { PlatformInput, SyncRequestInput } from '../../../services/platform/connection.js';
import type { PlatformService } from '../../../services/platform/index.js';
import type { PrivacyService } from '../../../services/platform/privacy.js';
import type { ShopsService } from '../../../services/shops.js';
import { requireOperator } from '../../plugins/admin-auth.js';
import { shopOf } from '../../plugins/request-shop.js';
import { bodyValidatedByService, type ParamsTypeProvider } from '../../plugins/params.js';
import { HandleIdPath, HandlePath } from '../../schemas/admin-params.js';
import { Errors } from '../../schemas/errors.js';
import { params } from '../../../domain/params/param.js';
import { email } from '../../../domain/params/text-kinds.js';

/** The customer's e-mail, for events that name them only by it once their row (and its e-mail) is gone. */
const EraseQuery = params({
  email: email("the customer's e-mail: events naming them only by it are erased too, whatever is stored"),
});
const ExportQuery = params({
  email: email("the customer's e-mail: events naming them only by it are exported too, whatever is stored"),
});

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const Count = Type.Integer({ minimum: 0 });

export const PlatformSyncSchema = Type.Object({
  id: Type.Integer(),
  mode: Type.Union([Type.Literal('full'), Type.Literal('reconcile')]),
  phase: Type.Union(['queued', 'exporting', 'importing', 'subscribing', 'done', 'failed'].map((p) => Type.Literal(p))),
  counts: Type.Object({ products: Count, collections: Count, customers: Count, orders: Count }),
  started_at: Nullable(Type.String()),
  finished_at: Nullable(Type.String()),
  error: Nullable(Type.String()),
});

/** The connection as answered (docs/api.md): the token never leaves the server, only whether one is stored. */
export const PlatformSchema = Type.Object({
  platform: Type.Object({
    shop_domain: Type.String(),
    api_version: Type.String(),
    api_url: Type.String(),
    access_token_set: Type.Boolean(),
    status: Type.Union([Type.Literal('connected'), Type.Literal('disconnected'), Type.Literal('failing')]),
    sync: Type.Union([PlatformSyncSchema, Type.Null()]),
    last_reconciled_at: Nullable(Type.String()),
    webhooks: Type.Array(Type.String()),
  }),
});

const PrivacyRequest = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  customer_id: Type.Union([Type.Integer(), Type.Null()]),
  received_at: Type.String(),
  export: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
});
const PrivacyList = Type.Object({ data: Type.Array(PrivacyRequest) });

/**
 * `…/platform`, `…/platform/sync`, `…/privacy/requests` and
 * `DELETE …/customers/{id}` (docs/api.md, "Connecting the platform").
 */
export function platformRoutes(
  fastify: FastifyInstance,
  deps: { shops: ShopsService; platform: PlatformService; privacy: PrivacyService },
): void {
  const app = fastify.withTypeProvider<ParamsTypeProvider>();
  const tags = ['admin: platform'];

  app.get(
    '/shops/:handle/platform',
    {
      schema: {
        summary: "The shop's platform connection, its status and its sync's progress",
        tags,
        params: HandlePath,
        response: { 200: PlatformSchema, ...Errors },
      },
    },
    async (request) => ({ platform: await deps.platform.view(shopOf(request).id) }),
  );

  app.put(
    '/shops/:handle/platform',
    {
      ...bodyValidatedByService,
      schema: {
        summary: 'Connect the shop to its platform (the access token is sealed and write-only) and start a full sync',
        tags,
        params: HandlePath,
        body: PlatformInput,
        response: { 200: PlatformSchema, ...Errors },
      },
    },
    async (request) => ({ platform: await deps.platform.connect(shopOf(request).id, request.body) }),
  );

  app.delete(
    '/shops/:handle/platform',
    {
      schema: {
        summary: 'Disconnect: remove the webhook subscriptions it made, keep the data',
        tags,
        params: HandlePath,
        response: { 200: PlatformSchema, ...Errors },
      },
    },
    async (request) => ({ platform: await deps.platform.disconnect(shopOf(request).id) }),
  );

  app.post(
    '/shops/:handle/platform/sync',
    {
      schema: {
        summary: 'Start a full sync or a reconciliation (one already running is answered instead)',
        tags,
        params: HandlePath,
        body: Type.Optional(SyncRequestInput),
        response: { 202: Type.Object({ sync: PlatformSyncSchema }), ...Errors },
      },
      // No body at all (`curl -X POST`) is a full sync, as the docs say: the validator would refuse it.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const sync = await deps.platform.requestSync(shopOf(request).id, request.body?.mode ?? 'full');
      return reply.code(202).send({ sync });
    },
  );

  app.get(
    '/shops/:handle/privacy/requests',
    {
      schema: {
        summary: "The platform's privacy requests of the last 30 days, with their exports",
        tags,
        params: HandlePath,
        response: { 200: PrivacyList, ...Errors },
      },
    },
    // The text as built, each stored export in it as it is: not parsed to be serialized again.
    async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(await deps.privacy.listJson(shopOf(request).id)),
  );

  app.withTypeProvider<ParamsTypeProvider>().delete(
    '/shops/:handle',
    {
      // The operator check comes first: a shop key learns nothing about other shops from this route.
      config: { resolvesShop: false },
      schema: {
        summary:
          'Delete a shop and everything stored for it, as the platform’s shop/redact does (operator token); ' +
          'its keys stop working on every node',
        tags: ['admin: shops'],
        params: HandlePath,
        response: { 200: Type.Object({ deleted: Type.String() }), ...Errors },
      },
    },
    async (request) => {
      requireOperator(request);
      const shop = await deps.shops.requireShop(request.params.handle);
      // A connected store goes on sending its webhooks to this handle (free again afterwards) until the
      // subscriptions are removed, and the token that removes them goes with the shop: remove them first.
      const connected = await deps.platform.view(shop.id).then(
        (view) => view.status === 'connected',
        () => false,
      );
      if (connected) await deps.platform.disconnect(shop.id);
      await deps.privacy.shopRedact(shop.id);
      return { deleted: shop.handle };
    },
  );

  app.withTypeProvider<ParamsTypeProvider>().post(
    '/shops/:handle/customers/:id/export',
    {
      schema: {
        summary:
          'Export everything stored about a customer (their data request made to the shop): ' +
          'kept 30 days and listed with the privacy requests',
        tags,
        params: HandleIdPath,
        querystring: ExportQuery,
        response: { 201: Type.Object({ request: PrivacyRequest }), ...Errors },
      },
    },
    async (request, reply) => {
      const { email: given } = request.query;
      const made = await deps.privacy.exportOnRequest(shopOf(request).id, request.params.id, given ? [given] : []);
      return reply.code(201).send({ request: made });
    },
  );

  app.withTypeProvider<ParamsTypeProvider>().delete(
    '/shops/:handle/customers/:id',
    {
      schema: {
        summary:
          'Erase a customer: their row, events, tracking and billing ' +
          "customer's personal fields; their order lines stay, anonymous",
        tags,
        params: HandleIdPath,
        querystring: EraseQuery,
        response: { 200: Type.Object({ erased: Type.Record(Type.String(), Type.Integer()) }), ...Errors },
      },
    },
    async (request) => {
      const { email: given } = request.query;
      const erased = await deps.privacy.eraseOnRequest(shopOf(request).id, request.params.id, given ? [given] : []);
      return { erased };
    },
  );
}
