import { addDays, shopToday } from '../../domain/billing/dates.js';
import { InvalidInputError, MissingInputError, NotFoundError } from '../../domain/errors.js';
import type { Shop } from '../../domain/shop.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import { loadCatalog } from '../../indexes/catalog-lookup.js';
import { idempotencyOf } from './idempotency.js';
import type { OnetimeRequest } from './params.js';
import type { OnetimeOutcome } from './provider.js';
import type { BillingProviders } from './providers.js';

/** One-time purchases on a subscription address, idempotent by Idempotency-Key (docs/billing.md). */
export function createOnetimeService(deps: { providers: Pick<BillingProviders, 'forShop'>; catalog: CatalogIndex; clock?: () => number }) {
  const { providers, catalog } = deps;
  const clock = deps.clock ?? Date.now;

  return {
    /** Creates (and with charge_now charges) a one-time purchase; a repeated key (the route has checked it) gets the first outcome. */
    async create(shop: Shop, request: OnetimeRequest, idempotencyKey: string | null): Promise<OnetimeOutcome & { replayed: boolean }> {
      const provider = await providers.forShop(shop.id);
      let addressId = request.addressId;
      if (request.chargeId !== null) {
        const charge = await provider.charge(shop.id, request.chargeId);
        if (!charge) throw new NotFoundError(`Charge ${request.chargeId} not found.`);
        addressId = charge.address_id;
      }
      const address = await provider.address(shop.id, addressId!);
      if (!address) throw new NotFoundError(`Address ${addressId} not found.`);
      const product = (await loadCatalog(catalog, shop.id)).byVariant.get(request.variantId);
      const variantIndex = product?.variants.findIndex((v) => v.id === request.variantId) ?? -1;
      if (!product || variantIndex < 0)
        throw new InvalidInputError('shop_variant_id', `Parameter shop_variant_id: variant ${request.variantId} is not in the catalog.`);
      const now = clock();
      const today = shopToday(now, shop.timezone);
      let date: string;
      if (request.date === 'today') date = today;
      else if (request.date === 'tomorrow') date = addDays(today, 1);
      else if (request.date !== null) date = request.date;
      else {
        const queued = await provider.nextQueuedCharge(shop.id, address.id, today);
        if (!queued)
          throw new MissingInputError('next_charge_scheduled_at', 'Parameter next_charge_scheduled_at is required: the address has no queued charge to join.');
        date = queued.scheduled_at.slice(0, 10);
      }
      if (date < today)
        throw new InvalidInputError(
          'next_charge_scheduled_at',
          `Parameter next_charge_scheduled_at must not be in the past (today is ${today} in the shop's time zone).`,
        );

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
          now,
        },
        idempotencyOf(idempotencyKey, { ...request, addressId }),
      );
    },
  };
}

export type OnetimeService = ReturnType<typeof createOnetimeService>;
