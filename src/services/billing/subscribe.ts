import { widgetSource } from '../../domain/attribution/source.js';
import { InvalidInputError } from '../../domain/errors.js';
import { requireAddressOrCharge, type SubscribeQuery } from '../../domain/params/billing.js';
import type { BillingSubscription } from '../../domain/billing/types.js';
import type { Shop } from '../../domain/shop.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import { idempotencyOf } from './idempotency.js';
import type { BillingProviders } from './providers.js';
import { resolvePurchase, type PurchaseRequest } from './purchase.js';

export interface SubscribeRequest extends PurchaseRequest {
  quantity: number;
  unit: 'day' | 'week' | 'month';
  orderFrequency: number;
  chargeFrequency: number;
  widgetId: string | null;
}

/** The request of a new subscription, from its decoded parameters. */
export function subscribeRequestOf(values: SubscribeQuery): SubscribeRequest {
  requireAddressOrCharge(values);
  if (values.order_interval_frequency === 0) {
    throw new InvalidInputError(
      'order_interval_frequency',
      'Missing required parameter order_interval_frequency (a whole number from 1).',
    );
  }
  return {
    addressId: values.address_id,
    chargeId: values.charge_id,
    variantId: values.shop_variant_id,
    date: values.next_charge_scheduled_at,
    quantity: values.quantity,
    unit: values.order_interval_unit,
    orderFrequency: values.order_interval_frequency,
    chargeFrequency: values.charge_interval_frequency || values.order_interval_frequency,
    widgetId: values.widget_id,
  };
}

/** New subscriptions on an address (docs/billing.md, "New subscriptions"), idempotent by Idempotency-Key as one-time purchases are. */
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
