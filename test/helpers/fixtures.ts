import { normalizeProduct } from '../../src/domain/catalog/normalize.js';
import type { Product } from '../../src/domain/catalog/product.js';
import type { ProductInput } from '../../src/domain/inputs/catalog.js';
import { newApiKey } from '../../src/domain/keys.js';
import type { NewShop } from '../../src/store/kysely/shops.js';
import type { EventTotals } from '../../src/store/kysely/event-totals.js';
import type { TrackRow } from '../../src/domain/attribution/track.js';

export const BIG = 7_000_000_000_000; // platform ids are beyond 32 bits

/** A valid admin product document; override any field. */
export function productInput(id: number, overrides: Partial<ProductInput> = {}): ProductInput {
  return {
    id,
    title: `Product ${id}`,
    handle: `product-${id}`,
    body_html: `<p>About product ${id}</p>`,
    vendor: 'Acme',
    product_type: 'Widgets',
    tags: 'alpha, beta',
    created_at: '2026-01-01T00:00:00Z',
    variants: [
      {
        id: id * 10 + 1,
        price: '10.00',
        inventory_management: 'shop',
        inventory_policy: 'deny',
        inventory_quantity: 5,
        option1: 'S',
      },
      {
        id: id * 10 + 2,
        price: '12.50',
        compare_at_price: '15.00',
        inventory_management: 'shop',
        inventory_policy: 'deny',
        inventory_quantity: 0,
        option1: 'M',
      },
    ],
    options: [{ name: 'Size', values: ['S', 'M'] }],
    images: [{ id: id * 10 + 7, src: `https://img.example/${id}.png`, width: 100, height: 100 }],
    metafields: [{ id: id * 10 + 8, namespace: 'specs', key: 'material', value: 'wool', value_type: 'string' }],
    ...overrides,
  };
}

export function product(id: number, overrides: Partial<ProductInput> = {}): Product {
  return normalizeProduct(productInput(id, overrides), new Date('2026-02-01T00:00:00Z'));
}

export function newShop(handle: string): NewShop {
  return {
    handle,
    name: `Shop ${handle}`,
    timezone: 'UTC',
    currency: 'USD',
    scopes: ['read_markets'],
    signing_secret: 'secret-for-tests-only',
    public_url: null,
    webhook_secret: null,
    billing_webhook_secret: null,
    settings: {},
  };
}

export function shopKeys() {
  return [newApiKey(0, 'public'), newApiKey(0, 'private')];
}

/** A storefront event as the intake stores it, for the store's `appendEvents`. */
export function storeEvent(
  shopId: number,
  verb: 'viewed' | 'added' | 'removed',
  handle: string | null,
  at: number,
  uuid: string | null = 'u1',
  customer: number | null = null,
) {
  return {
    shop_id: shopId,
    uuid,
    customer_id: customer,
    subject: 'user' as const,
    verb,
    noun: 'product' as const,
    handle,
    subject_email: null,
    theme_id: null,
    created_at: at,
  };
}

interface HandleTotal {
  handle: string;
  views: number;
  adds: number;
}

/** Event totals (as the store keeps and sums them) of one object a handle. */
export function eventTotals(rows: readonly HandleTotal[]): EventTotals {
  return { handles: rows.map((r) => r.handle), views: rows.map((r) => r.views), adds: rows.map((r) => r.adds) };
}

/** The store's event totals as one object a handle, in the store's order. */
export function totalRows(totals: EventTotals): HandleTotal[] {
  return totals.handles.map((handle, i) => ({ handle, views: totals.views[i]!, adds: totals.adds[i]! }));
}

/** A tracked click of product 7 from a `bought_together` list, as the track intake stores it. */
export function trackedClick(shopId: number, at: number, uuid = 'visitor-1', customer: number | null = null): TrackRow {
  return {
    shop_id: shopId,
    type: 'click',
    uuid,
    customer_id: customer,
    cart_token: null,
    source: 'bought_together',
    product_id: 7,
    variant_id: null,
    created_at: at,
    experiment_id: null,
    arm: null,
  };
}
