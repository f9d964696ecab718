import type { PlatformTables } from './platform-schema.js';

/**
 * Table shapes as Kysely sees them. Timestamps are epoch milliseconds (bigint), booleans are 0/1
 * integers and documents are JSON text, so the same queries run unchanged on SQLite and PostgreSQL;
 * the conversions live in codec.ts.
 */
export interface Database extends PlatformTables {
  settings: { key: string; value: string };
  counters: { shop_id: number; name: string; value: number };
  shops: ShopRow;
  api_keys: ApiKeyRow;
  products: ProductRow;
  variants: VariantRow;
  product_serving: ProductServingRow;
  collections: CollectionRow;
  collection_products: { shop_id: number; collection_id: number; product_id: number; position: number };
  customers: CustomerRow;
  markets: MarketRow;
  orders: OrderRow;
  order_lines: OrderLineRow;
  rulesets: RulesetRow;
  widgets: { shop_id: number; id: number; document: string; version: number; created_at: number; updated_at: number };
  events: EventRow;
  billing_customers: DocRow;
  billing_addresses: DocRow & { customer_id: number };
  billing_subscriptions: DocRow & { customer_id: number; address_id: number };
  billing_charges: DocRow & { customer_id: number; address_id: number };
  billing_onetimes: DocRow & { address_id: number };
  billing_orders: DocRow & { charge_id: number };
  campaigns: {
    shop_id: number;
    id: number;
    name: string;
    discount_code: string | null;
    created_at: number;
    max_claims_per_customer: number;
  };
  campaign_claims: { shop_id: number; campaign_id: number; customer_id: number; claims: number; updated_at: number };
  billing_providers: {
    shop_id: number;
    type: string;
    base_url: string | null;
    api_version: string | null;
    api_token: string | null;
    updated_at: number;
  };
  campaign_counts: { shop_id: number; campaign_id: number; tk: string; kind: string; count: number };
  idempotency_keys: {
    shop_id: number;
    key: string;
    request_hash: string;
    status: number;
    response: string;
    created_at: number;
  };
  shop_webhooks: {
    shop_id: number;
    webhook_id: string;
    seq: number;
    topic: string;
    payload: string;
    received_at: number;
    applied_at: number | null;
    outcome: string | null;
  };
  webhook_receipts: { shop_id: number; source: string; webhook_id: string; received_at: number };
  event_counts: { shop_id: number; day: number; handle: string; views: number; adds: number; removes: number };
  track_events: {
    shop_id: number;
    id: number;
    type: string;
    uuid: string | null;
    customer_id: number | null;
    source: string | null;
    product_id: number | null;
    variant_id: number | null;
    created_at: number;
    cart_token: string | null;
  };
  source_days: {
    shop_id: number;
    day: number;
    source: string;
    impressions: number;
    clicks: number;
    add_to_carts: number;
    orders: number;
    revenue: number;
  };
  order_attributions: {
    shop_id: number;
    order_id: number;
    line_no: number;
    source: string;
    via: string;
    product_id: number;
    quantity: number;
    revenue: number;
    experiment_id: number | null;
    arm: number | null;
    created_at: number;
  };
  experiments: {
    shop_id: number;
    id: number;
    name: string;
    ruleset_id: number;
    arms: string;
    status: string;
    winner: string | null;
    created_at: number;
    stopped_at: number | null;
  };
  experiment_visitors: { shop_id: number; experiment_id: number; visitor: string; arm: number; created_at: number };
  track_counted: { shop_id: number; day: number; visitor: string; source: string; product_id: number; type: string };
  experiment_days: {
    shop_id: number;
    experiment_id: number;
    arm: number;
    day: number;
    visitors: number;
    impressions: number;
    clicks: number;
    add_to_carts: number;
    orders: number;
    revenue: number;
    revenue_sq: number;
  };
}

export interface ShopRow {
  id: number;
  handle: string;
  name: string;
  timezone: string;
  currency: string;
  scopes: string; // JSON array
  signing_secret: string;
  public_url: string | null;
  webhook_secret: string | null;
  billing_webhook_secret: string | null;
  settings: string; // JSON of ShopSettings
  /** Moves on every write that changes what the shop's read model holds; nodes poll it. */
  data_version: number;
  created_at: number;
  updated_at: number;
}

export interface ApiKeyRow {
  id: string; // random id, not the key
  shop_id: number;
  kind: 'public' | 'private';
  key_hash: string;
  key_prefix: string;
  created_at: number;
  /** Null while the key is current; set on rotation to the end of its grace period. */
  expires_at: number | null;
}

export interface ProductRow {
  shop_id: number;
  id: number;
  handle: string;
  status: string;
  document: string; // JSON of the normalized product (variants, options, images, metafields)
  updated_at: number;
}

/** A product's answer bytes and index fields, written with it (src/indexes/product-serving.ts). */
export interface ProductServingRow {
  shop_id: number;
  product_id: number;
  version: number;
  body: Buffer;
  fields: string;
}

export interface VariantRow {
  shop_id: number;
  id: number;
  product_id: number;
  inventory_quantity: number;
  old_inventory_quantity: number;
}

export interface CollectionRow {
  shop_id: number;
  id: number;
  title: string;
  handle: string;
  updated_at: number;
}

export interface CustomerRow {
  shop_id: number;
  id: number;
  email: string | null;
  tags: string; // JSON array
  updated_at: number;
}

export interface MarketRow {
  shop_id: number;
  id: number;
  position: number;
  document: string; // JSON of the normalized market
  updated_at: number;
}

export interface OrderRow {
  shop_id: number;
  id: number;
  customer_id: number | null;
  created_at: number;
  cancelled_at: number | null;
  updated_at: number;
}

export interface OrderLineRow {
  shop_id: number;
  order_id: number;
  line_no: number;
  product_id: number;
  variant_id: number | null;
  quantity: number;
  price: string;
  customer_id: number | null;
  created_at: number;
}

export interface RulesetRow {
  shop_id: number;
  id: number;
  name: string;
  enabled: number;
  document: string; // JSON of the RulesetDocument
  version: number;
  created_at: number;
  updated_at: number;
}

export interface EventRow {
  shop_id: number;
  id: number;
  uuid: string | null;
  customer_id: number | null;
  subject: string;
  verb: string;
  noun: string;
  handle: string | null;
  subject_email: string | null;
  theme_id: string | null;
  created_at: number;
}

/** A ledger row: the document as JSON beside the columns queries filter on. */
export interface DocRow {
  shop_id: number;
  id: number;
  document: string;
  updated_at: number;
}
