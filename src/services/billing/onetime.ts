import { createHash } from 'node:crypto';
import { widgetSource } from '../../domain/attribution/source.js';
import { InvalidInputError } from '../../domain/errors.js';
import { requireAddressOrCharge, type OnetimeQuery } from '../../domain/params/billing.js';
import type { Shop } from '../../domain/shop.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import { resolvePurchase } from './purchase.js';
import type { Idempotency, OnetimeOutcome } from './provider.js';
import type { BillingProviders } from './providers.js';

export interface OnetimeRequest {
  addressId: number | null;
  chargeId: number | null;
  variantId: number;
  quantity: number;
  date: string | null; // YYYY-MM-DD, 'today' or 'tomorrow'
  chargeNow: boolean;
  widgetId: string | null;
}

/** The request of a one-time purchase, from its decoded parameters. */
export function onetimeRequestOf(values: OnetimeQuery): OnetimeRequest {
  requireAddressOrCharge(values);
  return {
    addressId: values.address_id,
    chargeId: values.charge_id,
    variantId: values.shop_variant_id,
    quantity: values.quantity,
    date: values.next_charge_scheduled_at,
    chargeNow: values.charge_now,
    widgetId: values.widget_id,
  };
}

/** An Idempotency-Key header is 1 to 200 printable characters. */
export function checkIdempotencyKey(key: string | null): void {
  if (key !== null && (key.length > 200 || !/^[\x21-\x7e]+$/.test(key))) {
    throw new InvalidInputError('Idempotency-Key', 'The Idempotency-Key header must be 1 to 200 printable characters.');
  }
}

/** The key with a digest of the request it came with: the same key with other parameters is a conflict. */
export function idempotencyFor(key: string | null, request: unknown): Idempotency | null {
  return key === null ? null : { key, hash: createHash('sha256').update(JSON.stringify(request)).digest('hex') };
}

/** One-time purchases on a subscription address, idempotent by Idempotency-Key (docs/billing.md). */
export function createOnetimeService(deps: { providers: Pick<BillingProviders, 'forShop'>; catalog: CatalogIndex; clock?: () => number }) {
  const { providers, catalog } = deps;
  const clock = deps.clock ?? Date.now;

  return {
    /** Creates (and with charge_now charges) a one-time purchase; a repeated key gets the first outcome. */
    async create(shop: Shop, request: OnetimeRequest, idempotencyKey: string | null): Promise<OnetimeOutcome & { replayed: boolean }> {
      checkIdempotencyKey(idempotencyKey);
      const provider = await providers.forShop(shop.id);
      const now = clock();
      const { address, addressId, product, variantIndex, date } = await resolvePurchase(provider, catalog, shop, request, now);
      const variant = JSON.parse(product.json.variants[variantIndex]!) as { title: string };
      return provider.createOnetime(
        shop.id,
        {
          address,
          productId: product.id,
          productTitle: product.title,
          variantId: request.variantId,
          variantTitle: variant.title,
          unitPrice: product.variants[variantIndex]!.price,
          quantity: request.quantity,
          date,
          chargeNow: request.chargeNow,
          source: widgetSource(request.widgetId),
          now,
        },
        idempotencyFor(idempotencyKey, { ...request, addressId }),
      );
    },
  };
}

export type OnetimeService = ReturnType<typeof createOnetimeService>;
