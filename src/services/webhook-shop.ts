import { createHmac } from 'node:crypto';
import { UnauthorizedError } from '../domain/errors.js';
import type { Shop } from '../domain/shop.js';
import type { ShopStore } from '../store/kysely/shops.js';

/** What every delivery that cannot be verified is told: the same for an unknown shop and a wrong signature. */
export function signatureRefused(): UnauthorizedError {
  return new UnauthorizedError('Invalid webhook signature.', 'webhook_signature');
}

/**
 * The shop a webhook names and its secret for that kind of delivery. A handle that names no shop, or a shop
 * with no secret, is refused as a wrong signature would be, after the same work: a receiver open to anyone
 * must not tell which shops exist. The body is signed with a throwaway key so that a large body takes as
 * long to refuse here as under a real secret. The merchant sees whether a secret is set on the Connection page.
 */
export async function webhookShop(
  store: Pick<ShopStore, 'getShopByHandle'>,
  handle: string,
  secretOf: (shop: Shop) => string | null | undefined,
  raw: Buffer,
): Promise<{ shop: Shop; secret: string }> {
  const shop = await store.getShopByHandle(handle);
  const secret = shop ? secretOf(shop) : null;
  if (shop && secret) return { shop, secret };
  createHmac('sha256', 'no secret').update(raw).digest();
  throw signatureRefused();
}
