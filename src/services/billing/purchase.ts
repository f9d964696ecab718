import { addDays, shopToday } from '../../domain/billing/dates.js';
import type { BillingAddress } from '../../domain/billing/types.js';
import { InvalidInputError, MissingInputError, NotFoundError } from '../../domain/errors.js';
import type { Shop } from '../../domain/shop.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import type { IndexedProduct } from '../../indexes/shop-catalog.js';
import { loadCatalog } from '../../indexes/catalog-lookup.js';
import type { BillingProvider } from './provider.js';

/** What a purchase on an address names: the address (or a charge of it), the variant and the first date. */
export interface PurchaseRequest {
  addressId: number | null;
  chargeId: number | null;
  variantId: number;
  /** `YYYY-MM-DD`, `today`, `tomorrow`, or null: the address's next queued charge. */
  date: string | null;
}

/**
 * Resolves what one-time purchases and new subscriptions share: the address (a charge's, when a
 * charge is named), the catalog variant, and the date in the shop's time zone, never in the past.
 */
export async function resolvePurchase(
  provider: BillingProvider,
  catalog: CatalogIndex,
  shop: Shop,
  request: PurchaseRequest,
  now: number,
) {
  let addressId = request.addressId;
  if (request.chargeId !== null) {
    const charge = await provider.charge(shop.id, request.chargeId);
    if (!charge) throw new NotFoundError(`Charge ${request.chargeId} not found.`);
    addressId = charge.address_id;
  }
  const address: BillingAddress | null = await provider.address(shop.id, addressId!);
  if (!address) throw new NotFoundError(`Address ${addressId} not found.`);
  const product: IndexedProduct | undefined = (await loadCatalog(catalog, shop.id)).byVariant.get(request.variantId);
  const variantIndex = product?.variants.findIndex((v) => v.id === request.variantId) ?? -1;
  if (!product || variantIndex < 0)
    throw new InvalidInputError(
      'shop_variant_id',
      `Parameter shop_variant_id: variant ${request.variantId} is not in the catalog.`,
    );
  const today = shopToday(now, shop.timezone);
  let date: string;
  if (request.date === 'today') date = today;
  else if (request.date === 'tomorrow') date = addDays(today, 1);
  else if (request.date !== null) date = request.date;
  else {
    const queued = await provider.nextQueuedCharge(shop.id, address.id, today);
    if (!queued)
      throw new MissingInputError(
        'next_charge_scheduled_at',
        'Parameter next_charge_scheduled_at is required: the address has no queued charge to join.',
      );
    date = queued.scheduled_at.slice(0, 10);
  }
  if (date < today)
    throw new InvalidInputError(
      'next_charge_scheduled_at',
      `Parameter next_charge_scheduled_at must not be in the past (today is ${today} in the shop's time zone).`,
    );
  return { address, addressId, product, variantIndex, date };
}
