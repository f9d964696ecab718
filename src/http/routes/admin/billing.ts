import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LedgerKind } from '../../../domain/billing/types.js';
import { BillingAddressInput, BillingChargeInput, BillingCustomerInput, BillingSubscriptionInput, CampaignInput, CampaignPatchInput } from '../../../domain/inputs/billing.js';
import type { LedgerService } from '../../../services/billing/ledger.js';
import { positiveId } from '../../../services/billing/params.js';
import type { ShopsService } from '../../../services/shops.js';
import { shopFor } from '../../plugins/admin-auth.js';
import { BULK_BODY_LIMIT, serviceValidated } from './bulk.js';

const HandleParams = Type.Object({ handle: Type.String() });
const tags = ['admin: billing'];
const Counters = { links_generated: Type.Integer(), pages_opened: Type.Integer(), reactivations: Type.Integer() };
const CampaignFields = {
  id: Type.Integer(), name: Type.String(), discount_code: Type.Union([Type.String(), Type.Null()]),
  max_claims_per_customer: Type.Integer({ description: 'reactivations one billing customer may make through this campaign\'s live links' }), created_at: Type.String(),
};
const CampaignAnswer = Type.Object({ campaign: Type.Object(CampaignFields) });
const CampaignList = Type.Object({ data: Type.Array(Type.Object({ ...CampaignFields, stats: Type.Object(Counters) })) });
const CampaignParams = Type.Object({ handle: Type.String(), id: Type.String() });

/** The billing ledger's bulk upserts and campaigns (docs/billing.md). */
export function adminBillingRoutes(app: FastifyInstance, deps: { shops: ShopsService; ledger: LedgerService }): void {
  const shopId = async (request: FastifyRequest) => (await shopFor(request, deps.shops, (request.params as { handle: string }).handle)).id;
  const kinds: [LedgerKind, TSchema][] = [['customers', BillingCustomerInput], ['addresses', BillingAddressInput], ['subscriptions', BillingSubscriptionInput], ['charges', BillingChargeInput]];
  for (const [kind, row] of kinds) {
    app.put(`/shops/:handle/billing/${kind}`, {
      ...serviceValidated,
      bodyLimit: BULK_BODY_LIMIT,
      schema: { summary: `Upsert billing ${kind} by id (JSON array or NDJSON; 422 names the bad row and field)`, tags, params: HandleParams, body: Type.Array(row) },
    }, async (request) => deps.ledger.upsert(await shopId(request), kind, request.body));
  }

  app.post('/shops/:handle/campaigns', { ...serviceValidated, schema: { summary: 'Create a reactivation campaign', tags, params: HandleParams, body: CampaignInput, response: { 201: CampaignAnswer } } },
    async (request, reply) => reply.status(201).send({ campaign: await deps.ledger.createCampaign(await shopId(request), request.body) }));

  app.patch('/shops/:handle/campaigns/:id', {
    ...serviceValidated,
    schema: { summary: 'Change a campaign\'s name, discount code or claim limit (max_claims_per_customer)', tags, params: CampaignParams, body: CampaignPatchInput, response: { 200: CampaignAnswer } },
  }, async (request) => {
    const id = positiveId({ id: (request.params as { id: string }).id }, 'id', true)!;
    return { campaign: await deps.ledger.updateCampaign(await shopId(request), id, request.body) };
  });

  app.get('/shops/:handle/campaigns', {
    schema: { summary: 'Campaigns, oldest first, each with its counters in total', tags, params: HandleParams, response: { 200: CampaignList } },
  }, async (request) => ({ data: await deps.ledger.listCampaigns(await shopId(request)) }));

  app.get('/shops/:handle/campaigns/:id/stats', {
    schema: { summary: 'Links generated, pages opened and reactivations, in total and by tk', tags, params: CampaignParams },
  }, async (request) => {
    const id = positiveId({ id: (request.params as { id: string }).id }, 'id', true)!;
    return { data: await deps.ledger.stats(await shopId(request), id) };
  });
}
