import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../../domain/errors.js';
import { BAD_CUSTOMER_SIG, customerSignature, safeEqual } from '../../domain/keys.js';
import type { Shop } from '../../domain/shop.js';

/** What the check needs of a shop (read before the hook by the residency hook: settings at least). */
type ShopEssentials = Pick<Shop, 'settings' | 'signing_secret'>;

/** A public event naming an e-mail without a signed customer, in a shop that requires signatures. */
export const UNSIGNED_EMAIL =
  'subject_email names a customer: with require_customer_signature, send it with shop_customer_id and customer_sig.';

/**
 * Shops that set require_customer_signature: a public request naming shop_customer_id must prove
 * the storefront may name that customer (docs/api.md, "Customer signatures"); else anyone with
 * the public key could read any customer's purchases. An event's `subject_email` names a customer
 * too (an export and an erasure find the sessions of events naming their address): it comes signed
 * for a customer, or not at all, or anyone could tie any number of sessions to anyone's history.
 * Private keys are server-side and trusted.
 */
export function registerCustomerSignatures(
  app: FastifyInstance,
  shopOf: (shopId: number) => ShopEssentials | undefined,
): void {
  app.addHook('preHandler', (request, _reply, done) => {
    const query = request.query as
      | { shop_customer_id?: unknown; customer_sig?: unknown; subject_email?: unknown }
      | undefined;
    const customerId = query?.shop_customer_id;
    const email = typeof query?.subject_email === 'string';
    if (request.apiKey?.kind !== 'public' || (typeof customerId !== 'number' && !email)) return done();
    const shop = shopOf(request.apiKey.shopId);
    if (!shop?.settings.require_customer_signature) return done();
    if (typeof customerId !== 'number') return done(new ForbiddenError(UNSIGNED_EMAIL, 'customer_signature'));
    const sig = typeof query?.customer_sig === 'string' ? query.customer_sig.toLowerCase() : '';
    done(
      safeEqual(sig, customerSignature(shop.signing_secret, customerId))
        ? undefined
        : new ForbiddenError(BAD_CUSTOMER_SIG, 'customer_signature'),
    );
  });
}
