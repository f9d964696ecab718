/** The billing ledger's documents (docs/billing.md). */

export interface BillingCustomer {
  id: number;
  hash: string;
  shop_customer_id: string;
  email: string;
  created_at: string;
  updated_at: string;
  first_charge_processed_at: string | null;
  first_name: string;
  last_name: string;
  billing_address1: string;
  billing_address2: string;
  billing_zip: string;
  billing_city: string;
  billing_company: string;
  billing_province: string;
  billing_country: string;
  billing_phone: string;
  processor_type: string;
  status: string;
  has_valid_payment_method: boolean;
  reason_payment_method_not_valid: string | null;
  has_card_error_in_dunning: boolean;
  number_active_subscriptions: number;
  number_subscriptions: number;
}

export interface BillingSubscription {
  id: number;
  address_id: number;
  customer_id: number;
  billing_product_id: number;
  shop_product_id: number;
  shop_variant_id: number;
  status: string;
  cancellation_reason: string | null;
  cancellation_reason_comments: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
  next_charge_scheduled_at: string | null;
  charge_interval_frequency: string;
  order_interval_frequency: string;
  order_interval_unit: string;
  order_day_of_month: number | null;
  order_day_of_week: number | null;
  expire_after_specific_number_of_charges: number | null;
  has_queued_charges: number;
  max_retries_reached: number;
  is_skippable: boolean;
  is_swappable: boolean;
  price: number;
  quantity: number;
  product_title: string;
  variant_title: string;
  sku: string | null;
  sku_override: boolean;
  properties: { name: string; value: string }[];
}

export interface BillingAddress {
  id: number;
  customer_id: number;
  address1: string;
  city: string;
  zip: string;
  country_code: string;
  discount_code: string | null;
  updated_at: string;
}

export interface BillingCharge {
  id: number;
  address_id: number;
  customer_id: number;
  status: string;
  scheduled_at: string;
  processed_at: string | null;
  total_price: string;
  updated_at: string;
}

export interface Onetime {
  id: number;
  address_id: number;
  customer_id: number;
  shop_product_id: number;
  shop_variant_id: number;
  quantity: number;
  price: string;
  product_title: string;
  variant_title: string;
  next_charge_scheduled_at: string;
  status: string;
  created_at: string;
  updated_at: string;
  /** `_rebound_source` = `widget:<widget_id>` when a widget sold it (docs/billing.md). */
  properties: { name: string; value: string }[];
}

export interface BillingOrder {
  id: number;
  charge_id: number;
  customer_id: number;
  created_at: string;
  line_items: { shop_product_id: number; shop_variant_id: number; quantity: number; price: string; title: string }[];
}

export interface Campaign {
  id: number;
  name: string;
  discount_code: string | null;
  /** How many times one billing customer may reactivate through this campaign's live links (default 1). */
  max_claims_per_customer: number;
  created_at: string;
}

/** Which system holds a shop's subscriptions: Rebound's own ledger, or a remote provider's API. */
export type BillingProviderType = 'ledger' | 'remote';

/** A shop's billing provider as the admin API shows it: never the token. */
export interface BillingProviderSettings {
  type: BillingProviderType;
  base_url: string | null;
  api_version: string | null;
  api_token_set: boolean;
}

export type CampaignCounter = 'links_generated' | 'pages_opened' | 'reactivations';

export type LedgerKind = 'customers' | 'addresses' | 'subscriptions' | 'charges';
