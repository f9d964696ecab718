import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../../domain/errors.js';
import { BAD_CUSTOMER_SIG, customerSignature, safeEqual } from '../../domain/keys.js';
import type { Shop } from '../../domain/shop.js';

/** What the check needs of a shop (read before the hook by the residency hook: settings at least). */
type ShopEssentials = Pick<Shop, 'settings' | 'signing_secret'>;

/**
 * Shops that set require_customer_signature: a public request naming shop_customer_id must prove
 * the storefront may name that customer (docs/api.md, "Customer signatures"); else anyone with
 * the public key could read any customer's purchases. Private keys are server-side and trusted.
 */
export function registerCustomerSignatures(
  app: FastifyInstance,
  shopOf: (shopId: number) => ShopEssentials | undefined,
): void {
  app.addHook('preHandler', (request, _reply, done) => {
    const query = request.query as { shop_customer_id?: unknown; customer_sig?: unknown } | undefined;
    const customerId = query?.shop_customer_id;
    if (request.apiKey?.kind !== 'public' || typeof customerId !== 'number') return done();
    const shop = shopOf(request.apiKey.shopId);
    if (!shop?.settings.require_customer_signature) return done();
    const sig = typeof query?.customer_sig === 'string' ? query.customer_sig.toLowerCase() : '';
    done(
      safeEqual(sig, customerSignature(shop.signing_secret, customerId))
        ? undefined
        : new ForbiddenError(BAD_CUSTOMER_SIG, 'customer_signature'),
    );
  });
}
