import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { InvalidInputError } from '../../domain/errors.js';
import type { BillingWebhooks } from '../../services/billing/webhooks.js';
import type { StorefrontSync } from '../../services/storefront-sync.js';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
  }
}

/** Webhook receivers: the signature covers the raw body, so it is kept as received. */
export function webhookRoutes(app: FastifyInstance, deps: { billing: BillingWebhooks; storefront: StorefrontSync }): void {
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 }, (request, body, done) => {
    request.rawBody = body as Buffer;
    try {
      done(null, JSON.parse((body as Buffer).toString('utf8')));
    } catch {
      done(new InvalidInputError('body', 'The webhook body is not valid JSON.'), undefined);
    }
  });

  app.post('/shop/:shop', {
    schema: {
      summary: 'Storefront webhooks: products/*, collections/*, inventory_levels/update, orders/* (X-Shop-Hmac-Sha256, X-Shop-Topic, X-Shop-Webhook-Id); queued, then applied',
      tags: ['webhooks'],
      params: Type.Object({ shop: Type.String() }),
    },
  }, async (request) => {
    const header = (name: string) => { const v = request.headers[name]; return typeof v === 'string' ? v : undefined; };
    const result = await deps.storefront.receive((request.params as { shop: string }).shop, {
      signature: header('x-shop-hmac-sha256'), topic: header('x-shop-topic'), webhookId: header('x-shop-webhook-id'),
    }, request.rawBody ?? Buffer.alloc(0));
    return { data: result };
  });

  app.post('/billing/:shop', {
    schema: {
      summary: 'Billing webhooks: subscription/*, customer/*, address/*, charge/* (X-Billing-Hmac-Sha256, X-Billing-Topic, X-Billing-Webhook-Id)',
      tags: ['webhooks'],
      params: Type.Object({ shop: Type.String() }),
    },
  }, async (request) => {
    const header = (name: string) => { const v = request.headers[name]; return typeof v === 'string' ? v : undefined; };
    const result = await deps.billing.receive((request.params as { shop: string }).shop, {
      signature: header('x-billing-hmac-sha256'), topic: header('x-billing-topic'), webhookId: header('x-billing-webhook-id'),
    }, request.rawBody ?? Buffer.alloc(0), request.body);
    return { data: result };
  });
}
