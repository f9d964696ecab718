import { Type } from '@sinclair/typebox';
import { LRUCache } from 'lru-cache';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../../cache/rate-limiter.js';
import { TooManyRequestsError } from '../../domain/errors.js';
import { params } from '../../domain/params/param.js';
import { text } from '../../domain/params/text-kinds.js';
import type { ParamsTypeProvider } from '../plugins/params.js';
import { Errors } from '../schemas/errors.js';
import type { BillingWebhooks } from '../../services/billing/webhooks.js';
import type { StorefrontSync } from '../../services/storefront-sync.js';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
  }
}

const ShopParams = params({ shop: text('the shop handle', { max: 100, required: true }) });
const WebhookAnswer = Type.Object({
  data: Type.Union([
    Type.Literal('queued'),
    Type.Literal('applied'),
    Type.Literal('duplicate'),
    Type.Literal('ignored'),
  ]),
});
const header = (description: string) => Type.Optional(Type.String({ description }));
const StorefrontHeaders = Type.Object({
  'x-shop-hmac-sha256': header("base64 HMAC-SHA256 of the raw body with the shop's webhook_secret"),
  'x-shop-topic': header('e.g. products/update'),
  'x-shop-webhook-id': header('delivery id: a repeat is applied once'),
  'x-shopify-hmac-sha256': header("the platform's name for the same signature"),
  'x-shopify-topic': header("the platform's topic"),
  'x-shopify-webhook-id': header("the platform's delivery id"),
  'x-shopify-triggered-at': header(
    'when the platform fired it: a delivery more than 24 hours old is answered and not applied',
  ),
  'x-shopify-event-id': header('the event a delivery is for: another delivery of the same event is applied once'),
});
const BillingHeaders = Type.Object({
  'x-billing-hmac-sha256': header("hex HMAC-SHA256 of the raw body with the shop's billing_webhook_secret"),
  'x-billing-topic': header('e.g. subscription/updated'),
  'x-billing-webhook-id': header('delivery id: a repeat is applied once'),
  'x-recharge-webhook-signature': header(
    't=<epoch>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">; t within 5 minutes of now',
  ),
  'x-recharge-webhook-timestamp': header('the same epoch as t'),
  'x-recharge-hmac-sha256': header(
    'legacy: hex SHA-256 of billing_webhook_secret followed by the raw body (not an HMAC)',
  ),
  'x-recharge-topic': header(
    'e.g. subscription/activated; topics other than subscription, customer, address and charge are ignored',
  ),
});

/** Webhook deliveries a shop may receive a minute (both receivers together), and each proven sender of it. */
export const WEBHOOK_LIMIT_PER_MINUTE = 6000;
/** Shop and address pairs remembered as senders of verified deliveries, and for how long after the last. */
const PROVEN_SENDERS = 10_000;
const PROVEN_FOR_MS = 60 * 60_000;

const SIGNATURE_HEADERS = [
  'x-shop-hmac-sha256',
  'x-shopify-hmac-sha256',
  'x-billing-hmac-sha256',
  'x-recharge-webhook-signature',
  'x-recharge-hmac-sha256',
];

/** A JSON body with a signature header: what the receivers check a signature of (the rest is a 401 or 415). */
function mayBeDelivery(headers: Record<string, string | string[] | undefined>): boolean {
  const type = headers['content-type'];
  if (typeof type !== 'string' || !/^application\/json\s*(;|$)/i.test(type)) return false;
  return SIGNATURE_HEADERS.some((name) => headers[name] !== undefined);
}

export function webhookRoutes(
  fastify: FastifyInstance,
  deps: { billing: BillingWebhooks; storefront: StorefrontSync; limiter: RateLimiter },
): void {
  const app = fastify.withTypeProvider<ParamsTypeProvider>();
  // Kept as bytes: the receivers check the signature on them before anything parses them.
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 },
    (request, body, done) => {
      request.rawBody = body as Buffer;
      done(null, undefined);
    },
  );
  // Per shop, before any signature is computed: a flood of deliveries cannot take the process. Only what
  // could be a delivery counts (JSON, signed): a request without a signature or of another type is
  // refused before anything is computed, and counted, it used up the shop's minute for its real deliveries.
  // An address that delivered a verified webhook for the shop lately has a minute of its own: forged
  // signatures sent from elsewhere use up the shop's shared minute, never the platform's.
  const proven = new LRUCache<string, true>({ max: PROVEN_SENDERS, ttl: PROVEN_FOR_MS });
  const senderOf = (request: FastifyRequest) =>
    `${((request.params as { shop?: string }).shop ?? '').slice(0, 100)}\n${request.ip}`;
  app.addHook('onRequest', async (request, reply) => {
    if (!mayBeDelivery(request.headers)) return;
    const sender = senderOf(request);
    const bucket = proven.has(sender) ? `whp:${sender}` : `wh:${sender.slice(0, sender.indexOf('\n'))}`;
    const decision = await deps.limiter.hit(bucket, WEBHOOK_LIMIT_PER_MINUTE);
    if (!decision.allowed) {
      void reply.header('retry-after', String(decision.retryAfter));
      throw new TooManyRequestsError(
        `Rate limit exceeded: ${WEBHOOK_LIMIT_PER_MINUTE} webhook deliveries a ` +
          `minute for this shop. Retry after ${decision.retryAfter} seconds.`,
        decision.retryAfter,
      );
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 200 && mayBeDelivery(request.headers)) proven.set(senderOf(request), true);
  });

  app.post(
    '/shop/:shop',
    {
      schema: {
        summary:
          'Storefront webhooks: products/*, collections/*, inventory_levels/update, orders/*; neutral ' +
          "headers (X-Shop-Hmac-Sha256, X-Shop-Topic, X-Shop-Webhook-Id) or the platform's " +
          '(X-Shopify-Hmac-Sha256, X-Shopify-Topic, X-Shopify-Webhook-Id); queued, then applied',
        tags: ['webhooks'],
        params: ShopParams,
        headers: StorefrontHeaders,
        response: { 200: WebhookAnswer, ...Errors },
      },
    },
    async (request) => {
      const header = headerReader(request);
      const platform = header('x-shopify-hmac-sha256') !== undefined && header('x-shop-hmac-sha256') === undefined;
      const result = await deps.storefront.receive(
        request.params.shop,
        platform
          ? {
              signature: header('x-shopify-hmac-sha256'),
              topic: header('x-shopify-topic'),
              webhookId: header('x-shopify-webhook-id'),
              eventId: header('x-shopify-event-id'),
              triggeredAt: header('x-shopify-triggered-at'),
              dialect: 'platform',
            }
          : {
              signature: header('x-shop-hmac-sha256'),
              topic: header('x-shop-topic'),
              webhookId: header('x-shop-webhook-id'),
              dialect: 'neutral',
            },
        request.rawBody ?? Buffer.alloc(0),
      );
      return { data: result };
    },
  );

  app.post(
    '/billing/:shop',
    {
      schema: {
        summary:
          'Billing webhooks: subscription/*, customer/*, address/*, charge/*; neutral headers ' +
          "(X-Billing-Hmac-Sha256, X-Billing-Topic, X-Billing-Webhook-Id) or the platform's " +
          '(X-Recharge-Webhook-Signature or X-Recharge-Hmac-Sha256, X-Recharge-Topic)',
        tags: ['webhooks'],
        params: ShopParams,
        headers: BillingHeaders,
        response: { 200: WebhookAnswer, ...Errors },
      },
    },
    async (request) => {
      const header = headerReader(request);
      const result = await deps.billing.receive(
        request.params.shop,
        {
          signature: header('x-billing-hmac-sha256'),
          topic: header('x-billing-topic'),
          webhookId: header('x-billing-webhook-id'),
          legacySignature: header('x-recharge-hmac-sha256'),
          timedSignature: header('x-recharge-webhook-signature'),
          timestamp: header('x-recharge-webhook-timestamp'),
          platformTopic: header('x-recharge-topic'),
        },
        request.rawBody ?? Buffer.alloc(0),
      );
      return { data: result };
    },
  );
}

/** One header as a string (undefined when absent or repeated). */
function headerReader(request: FastifyRequest): (name: string) => string | undefined {
  return (name) => {
    const v = request.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
}
