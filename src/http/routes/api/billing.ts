import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { OnetimeService } from '../../../services/billing/onetime.js';
import { parseOnetimeQuery } from '../../../services/billing/onetime.js';
import { parseReactivateQuery } from '../../../services/billing/params.js';
import type { ReactivationService } from '../../../services/billing/reactivation.js';
import { formatParam, yesNo, type Query } from '../../../services/params.js';
import type { ShopsService } from '../../../services/shops.js';
import { sendJson } from '../../reply.js';
import { KeyParam } from '../../schemas/common.js';

const text = (description: string) => Type.Optional(Type.String({ description }));

const ReactivateQuery = Type.Object({
  ...KeyParam,
  billing_customer_id: text('billing customer to build the context for (required)'),
  campaign_id: text('reactivation campaign id'),
  billing_subscription_ids: text('comma-separated subscription ids, or all (every subscription that is not ACTIVE; the default)'),
  billing_discount_code: text('discount code recorded on the address when reactivating'),
  tk: text('tracking key placed in the links: at most 40 letters, digits, dashes or underscores'),
  request_type: text('preview (default: links that never write) or live'),
  bust_cache: text('yes / no (answers are never cached: accepted for compatibility)'),
  format: text('pretty'),
});

const OnetimeFields = {
  address_id: 'address to attach the one-time purchase to (this or charge_id)',
  charge_id: 'a charge whose address is used (this or address_id)',
  next_charge_scheduled_at: 'YYYY-MM-DD, today or tomorrow (shop time zone); default the address\'s next queued charge',
  shop_variant_id: 'variant to purchase (required)',
  quantity: '1-1000, default 1',
  charge_now: 'yes: charge now and create the order',
  format: 'pretty',
};

/** The billing endpoints (seed §3, §4): private key only. */
export function billingRoutes(app: FastifyInstance, deps: { shops: ShopsService; reactivation: ReactivationService; onetime: OnetimeService }): void {
  app.get('/billing/reactivate', {
    config: { auth: 'private' },
    schema: { summary: 'Reactivation context: the customer, cancelled subscriptions and signed one-click links', tags: ['billing'], querystring: ReactivateQuery },
  }, async (request, reply) => {
    const query = request.query as Query;
    const params = parseReactivateQuery(query);
    const pretty = formatParam(query);
    yesNo(query, 'bust_cache', false);
    const shop = await deps.shops.requireShopById(request.apiKey!.shopId);
    const data = await deps.reactivation.context(shop, params);
    return sendJson(reply, Buffer.from(JSON.stringify({ data })), pretty);
  });

  app.post('/billing/onetime', {
    config: { auth: 'private' },
    validatorCompiler: () => () => true,
    schema: {
      summary: 'Create a one-time purchase on a subscription address (Idempotency-Key makes retries safe)',
      tags: ['billing'],
      querystring: Type.Object({ ...KeyParam, ...Object.fromEntries(Object.entries(OnetimeFields).map(([k, d]) => [k, text(d)])) }),
      body: Type.Object(Object.fromEntries(Object.entries(OnetimeFields).map(([k, d]) => [k, Type.Optional(Type.Union([Type.String(), Type.Number()], { description: d }))])), { additionalProperties: true }),
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ description: 'same key and parameters: the first answer again; other parameters: 409' })) }),
    },
  }, async (request, reply) => {
    const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body as Query : {};
    const query = { ...body, ...(request.query as Query) };
    const onetime = parseOnetimeQuery(query);
    const pretty = formatParam(query);
    const header = request.headers['idempotency-key'];
    const shop = await deps.shops.requireShopById(request.apiKey!.shopId);
    const outcome = await deps.onetime.create(shop, onetime, typeof header === 'string' ? header : null);
    if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
    // A refused card is an answer, not an error: the charge is recorded as ERROR and shown.
    const [status, answer] = outcome.kind === 'created'
      ? [201, { data: { onetime: outcome.onetime, charge: outcome.charge, order: outcome.order } }]
      : [402, { error: outcome.message, charge: outcome.charge }];
    return sendJson(reply, Buffer.from(JSON.stringify(answer)), pretty, status);
  });
}
