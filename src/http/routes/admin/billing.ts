import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { LedgerKind } from '../../../domain/billing/types.js';
import {
  BillingAddressInput,
  BillingChargeInput,
  BillingCustomerInput,
  BillingSubscriptionInput,
  CampaignInput,
  CampaignPatchInput,
} from '../../../domain/inputs/billing.js';
import type { LedgerService } from '../../../services/billing/ledger.js';
import { shopOf } from '../../plugins/request-shop.js';
import { bodyValidatedByService, type ParamsTypeProvider } from '../../plugins/params.js';
import { HandleIdPath, HandlePath } from '../../schemas/admin-params.js';
import { BULK_BODY_LIMIT } from './bulk.js';
import { Errors } from '../../schemas/errors.js';
import { CampaignStats, Upserted } from '../../schemas/admin.js';

const tags = ['admin: billing'];
const Counters = { links_generated: Type.Integer(), pages_opened: Type.Integer(), reactivations: Type.Integer() };
const CampaignFields = {
  id: Type.Integer(),
  name: Type.String(),
  discount_code: Type.Union([Type.String(), Type.Null()]),
  max_claims_per_customer: Type.Integer({
    description: "reactivations one billing customer may make through this campaign's live links",
  }),
  created_at: Type.String(),
};
const CampaignAnswer = Type.Object({ campaign: Type.Object(CampaignFields) });
const CampaignList = Type.Object({
  data: Type.Array(Type.Object({ ...CampaignFields, stats: Type.Object(Counters) })),
});

/** The billing ledger's bulk upserts and campaigns (docs/billing.md). */
export function adminBillingRoutes(fastify: FastifyInstance, deps: { ledger: LedgerService }): void {
  const app = fastify.withTypeProvider<ParamsTypeProvider>();
  const kinds: [LedgerKind, TSchema][] = [
    ['customers', BillingCustomerInput],
    ['addresses', BillingAddressInput],
    ['subscriptions', BillingSubscriptionInput],
    ['charges', BillingChargeInput],
  ];
  for (const [kind, row] of kinds) {
    app.put(
      `/shops/:handle/billing/${kind}`,
      {
        ...bodyValidatedByService,
        bodyLimit: BULK_BODY_LIMIT,
        schema: {
          summary: `Upsert billing ${kind} by id (JSON array or NDJSON; 422 names the bad row and field)`,
          tags,
          params: HandlePath,
          body: Type.Array(row),
          response: { 200: Upserted, ...Errors },
        },
      },
      async (request) => deps.ledger.upsert(shopOf(request).id, kind, request.body),
    );
  }

  app.post(
    '/shops/:handle/campaigns',
    {
      ...bodyValidatedByService,
      schema: {
        summary: 'Create a reactivation campaign',
        tags,
        params: HandlePath,
        body: CampaignInput,
        response: { 201: CampaignAnswer, ...Errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ campaign: await deps.ledger.createCampaign(shopOf(request).id, request.body) }),
  );

  app.patch(
    '/shops/:handle/campaigns/:id',
    {
      ...bodyValidatedByService,
      schema: {
        summary: "Change a campaign's name, discount code or claim limit (max_claims_per_customer)",
        tags,
        params: HandleIdPath,
        body: CampaignPatchInput,
        response: { 200: CampaignAnswer, ...Errors },
      },
    },
    async (request) => {
      return { campaign: await deps.ledger.updateCampaign(shopOf(request).id, request.params.id, request.body) };
    },
  );

  app.get(
    '/shops/:handle/campaigns',
    {
      schema: {
        summary: 'Campaigns, oldest first, each with its counters in total',
        tags,
        params: HandlePath,
        response: { 200: CampaignList, ...Errors },
      },
    },
    async (request) => ({ data: await deps.ledger.listCampaigns(shopOf(request).id) }),
  );

  app.get(
    '/shops/:handle/campaigns/:id/stats',
    {
      schema: {
        summary: 'Links generated, pages opened and reactivations, in total and by tk',
        tags,
        params: HandleIdPath,
        response: { 200: CampaignStats, ...Errors },
      },
    },
    async (request) => {
      return { data: await deps.ledger.stats(shopOf(request).id, request.params.id) };
    },
  );
}
