import { widgetSource } from '../../domain/attribution/source.js';
import type { BillingSubscription } from '../../domain/billing/types.js';
import type { Shop } from '../../domain/shop.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import { idempotencyOf } from './idempotency.js';
import type { BillingProviders } from './providers.js';
import type { SubscribeRequest } from './params.js';
import { resolvePurchase } from './purchase.js';

/**
 * New subscriptions on an address (docs/billing.md, "New subscriptions"),
 * idempotent by Idempotency-Key as one-time purchases are.
 */
export function createSubscribeService(deps: {
  providers: Pick<BillingProviders, 'forShop'>;
  catalog: CatalogIndex;
  clock?: () => number;
}) {
  const clock = deps.clock ?? Date.now;
  return {
    async subscribe(
      shop: Shop,
      request: SubscribeRequest,
      idempotencyKey: string | null,
    ): Promise<{ subscription: BillingSubscription; replayed: boolean }> {
      const provider = await deps.providers.forShop(shop.id);
      const now = clock();
      const { address, addressId, product, variantIndex, date } = await resolvePurchase(
        provider,
        deps.catalog,
        shop,
        request,
        now,
      );
      const variant = JSON.parse(product.json.variants[variantIndex]!) as { title: string; sku?: string | null };
      return provider.createSubscription(
        shop.id,
        {
          address,
          productId: product.id,
          productTitle: product.title,
          variantId: request.variantId,
          variantTitle: variant.title,
          sku: variant.sku ?? null,
          unitPrice: product.variants[variantIndex]!.price,
          quantity: request.quantity,
          date,
          orderIntervalUnit: request.unit,
          orderIntervalFrequency: request.orderFrequency,
          chargeIntervalFrequency: request.chargeFrequency,
          source: widgetSource(request.widgetId),
          now,
        },
        idempotencyOf(idempotencyKey, { subscribe: true, ...request, addressId }),
      );
    },
  };
}

export type SubscribeService = ReturnType<typeof createSubscribeService>;
