import { widgetSource } from '../../domain/attribution/source.js';
import type { Shop } from '../../domain/shop.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import { idempotencyOf } from './idempotency.js';
import type { OnetimeRequest } from './params.js';
import type { OnetimeOutcome } from './provider.js';
import type { BillingProviders } from './providers.js';
import { resolvePurchase } from './purchase.js';

/** One-time purchases on a subscription address, idempotent by Idempotency-Key (docs/billing.md). */
export function createOnetimeService(deps: {
  providers: Pick<BillingProviders, 'forShop'>;
  catalog: CatalogIndex;
  clock?: () => number;
}) {
  const { providers, catalog } = deps;
  const clock = deps.clock ?? Date.now;

  return {
    /**
     * Creates (and with charge_now charges) a one-time purchase; a
     * repeated key (the route has checked it) gets the first outcome.
     */
    async create(
      shop: Shop,
      request: OnetimeRequest,
      idempotencyKey: string | null,
    ): Promise<OnetimeOutcome & { replayed: boolean }> {
      const provider = await providers.forShop(shop.id);
      const now = clock();
      const { address, addressId, product, variantIndex, date } = await resolvePurchase(
        provider,
        catalog,
        shop,
        request,
        now,
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
          source: widgetSource(request.widgetId),
          now,
        },
        idempotencyOf(idempotencyKey, { ...request, addressId }),
      );
    },
  };
}

export type OnetimeService = ReturnType<typeof createOnetimeService>;
