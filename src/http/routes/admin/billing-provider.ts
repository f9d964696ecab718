import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { BillingProviderInput } from '../../../domain/inputs/billing-provider.js';
import type { BillingProviders } from '../../../services/billing/providers.js';
import { shopOf } from '../../plugins/request-shop.js';
import { bodyValidatedByService, type ParamsTypeProvider } from '../../plugins/params.js';
import { HandlePath } from '../../schemas/admin-params.js';
import { Errors } from '../../schemas/errors.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

/** The provider settings as answered: the token never leaves the server, only whether one is stored. */
export const BillingProviderSchema = Type.Object({
  type: Type.Union([Type.Literal('ledger'), Type.Literal('remote')]),
  base_url: Nullable(Type.String()),
  api_version: Nullable(Type.String()),
  api_token_set: Type.Boolean(),
});

/** `GET` / `PUT /admin/v1/shops/{handle}/billing/provider` (docs/billing.md, "Switching a shop to remote"). */
export function billingProviderRoutes(fastify: FastifyInstance, deps: { providers: BillingProviders }): void {
  const app = fastify.withTypeProvider<ParamsTypeProvider>();
  const tags = ['admin: billing'];
  app.get(
    '/shops/:handle/billing/provider',
    {
      schema: {
        summary: "The shop's billing provider: type, base URL and API version (never the token)",
        tags,
        params: HandlePath,
        response: { 200: BillingProviderSchema, ...Errors },
      },
    },
    async (request) => deps.providers.settings(shopOf(request).id),
  );

  app.put(
    '/shops/:handle/billing/provider',
    {
      ...bodyValidatedByService,
      schema: {
        summary:
          'Switch the shop to the ledger or a remote billing provider; ' +
          'the API token is stored encrypted and is write-only',
        tags,
        params: HandlePath,
        body: BillingProviderInput,
        response: { 200: BillingProviderSchema, ...Errors },
      },
    },
    async (request) => deps.providers.configure(shopOf(request).id, request.body),
  );
}
