/** A tenant (docs/api.md, "Keys"). Secrets stay inside the service; `publicShop` is what the admin API shows. */
export interface Shop {
  id: number;
  handle: string;
  name: string;
  timezone: string;
  currency: string;
  scopes: string[];
  signing_secret: string;
  public_url: string | null;
  webhook_secret: string | null;
  billing_webhook_secret: string | null;
  settings: ShopSettings;
  data_version: number;
  created_at: string;
  updated_at: string;
}

/** Per-shop tuning of the lists (docs/lists.md has the defaults that apply when absent). */
export interface ShopSettings {
  trending_window_days?: number;
  trending_half_life_days?: number;
  /** What trending sums: orders holding the product (default) or units sold. */
  trending_counts?: 'orders' | 'units';
  /** The similarity `/products/recommended` and `/products/for_you` rank by. */
  recommended_similarity?: 'weighted' | 'count' | 'jaccard' | 'lift';
  /** Pairs bought together by fewer users than this are not neighbours. */
  recommended_support_threshold?: number;
  /** Who a user of the co-occurrence matrix is: a customer, or one order. */
  recommended_basis?: 'customer' | 'order';
  /** `/products/for_you` keeps products the customer already bought. */
  for_you_include_purchased?: boolean;
  /** Half-life of a purchase in a customer's affinities, in days. */
  affinity_half_life_days?: number;
  /** `/products/for_you`'s blend weights beside the customer's own purchases (docs/lists.md). */
  for_you_similarity?: number;
  for_you_content?: number;
  for_you_popularity?: number;
  /** Reactivate on GET of a live link (off by default: mail scanners prefetch links). */
  reactivate_on_get?: boolean;
  /** Requests a minute per public key and client address (default 1,000). */
  rate_limit_public_per_minute?: number;
  /** Requests a minute per private key (default 6,000). */
  rate_limit_private_per_minute?: number;
  /** Public requests naming shop_customer_id must carry customer_sig (docs/api.md, "Customer signatures"). */
  require_customer_signature?: boolean;
  /** How long before an order a customer's click still attributes it (default 24 hours). */
  attribution_window_hours?: number;
  /** Orders of the last this many days are pulled from the platform (default 365). */
  platform_order_days?: number;
  /** Minutes between two reconciliations with the platform (default 60). */
  platform_reconcile_minutes?: number;
  /** Events older than this many days are deleted daily (default 400). */
  event_retention_days?: number;
  /** The unit of a `cart_subtotal` sent without a bracketed cart (default major: the currency unit). */
  cart_subtotal_unit?: 'major' | 'minor';
}

/** Settings only the operator token may change: a shop's own key must not lift its own limits. */
export const OPERATOR_SETTINGS = ['rate_limit_public_per_minute', 'rate_limit_private_per_minute'] as const;

export type PublicShop = Omit<Shop, 'signing_secret' | 'webhook_secret' | 'billing_webhook_secret' | 'data_version'> & {
  webhook_secret_set: boolean;
  billing_webhook_secret_set: boolean;
};

export function publicShop(shop: Shop): PublicShop {
  const { signing_secret: _s, webhook_secret, billing_webhook_secret, data_version: _v, ...rest } = shop;
  return {
    ...rest,
    webhook_secret_set: webhook_secret !== null,
    billing_webhook_secret_set: billing_webhook_secret !== null,
  };
}

export const HANDLE_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Whether the runtime knows the IANA time zone. */
export function isValidTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export type KeyKind = 'public' | 'private';

export interface ApiKeyRecord {
  id: string;
  shop_id: number;
  kind: KeyKind;
  key_hash: string;
  key_prefix: string;
  created_at: number;
  expires_at: number | null;
}

/** A key as the shop's key list shows it: kind, prefix and state, never the key (docs/api.md). */
export interface KeySummary {
  kind: KeyKind;
  key_prefix: string;
  created_at: string;
  expires_at: string | null;
  state: 'current' | 'grace' | 'ended';
}
