import type {
  BillingAddressInput,
  BillingChargeInput,
  BillingCustomerInput,
  BillingSubscriptionInput,
} from '../inputs/billing.js';
import { billingTimestamp } from './dates.js';
import type { BillingAddress, BillingCharge, BillingCustomer, BillingSubscription } from './types.js';

/** Full ledger documents from admin inputs: every field of the public API present, defaults filled. */
export function normalizeCustomer(c: BillingCustomerInput, now: number): BillingCustomer {
  const created = c.created_at ?? billingTimestamp(now);
  return {
    id: c.id,
    hash: c.hash ?? `c${c.id}`,
    shop_customer_id: String(c.shop_customer_id ?? ''),
    email: c.email,
    created_at: created,
    updated_at: c.updated_at ?? created,
    first_charge_processed_at: c.first_charge_processed_at ?? null,
    first_name: c.first_name ?? '',
    last_name: c.last_name ?? '',
    billing_address1: c.billing_address1 ?? '',
    billing_address2: c.billing_address2 ?? '',
    billing_zip: c.billing_zip ?? '',
    billing_city: c.billing_city ?? '',
    billing_company: c.billing_company ?? '',
    billing_province: c.billing_province ?? '',
    billing_country: c.billing_country ?? '',
    billing_phone: c.billing_phone ?? '',
    processor_type: c.processor_type ?? 'stripe',
    status: c.status ?? 'INACTIVE',
    has_valid_payment_method: c.has_valid_payment_method ?? true,
    reason_payment_method_not_valid: c.reason_payment_method_not_valid ?? null,
    has_card_error_in_dunning: c.has_card_error_in_dunning ?? false,
    number_active_subscriptions: c.number_active_subscriptions ?? 0,
    number_subscriptions: c.number_subscriptions ?? 0,
  };
}

/**
 * A ledger customer's tally as its subscriptions give it: the counts and `status` (`ACTIVE` with at least one
 * active subscription), read rather than stored, so a reactivation or a new subscription cannot leave it stale.
 */
export function withSubscriptionTally(
  customer: BillingCustomer,
  subscriptions: BillingSubscription[],
): BillingCustomer {
  const active = subscriptions.filter((s) => s.status === 'ACTIVE').length;
  return {
    ...customer,
    status: active > 0 ? 'ACTIVE' : 'INACTIVE',
    number_active_subscriptions: active,
    number_subscriptions: subscriptions.length,
  };
}

export function normalizeAddress(a: BillingAddressInput, now: number): BillingAddress {
  return {
    id: a.id,
    customer_id: a.customer_id,
    address1: a.address1,
    city: a.city,
    zip: a.zip,
    country_code: a.country_code.toUpperCase(),
    discount_code: a.discount_code ?? null,
    updated_at: a.updated_at ?? billingTimestamp(now),
  };
}

export function normalizeSubscription(s: BillingSubscriptionInput, now: number): BillingSubscription {
  const created = s.created_at ?? billingTimestamp(now);
  return {
    id: s.id,
    address_id: s.address_id,
    customer_id: s.customer_id,
    billing_product_id: s.billing_product_id ?? s.shop_product_id,
    shop_product_id: s.shop_product_id,
    shop_variant_id: s.shop_variant_id,
    status: s.status.toUpperCase(),
    cancellation_reason: s.cancellation_reason ?? null,
    cancellation_reason_comments: s.cancellation_reason_comments ?? null,
    cancelled_at: s.cancelled_at ?? null,
    created_at: created,
    updated_at: s.updated_at ?? created,
    next_charge_scheduled_at: s.next_charge_scheduled_at ?? null,
    charge_interval_frequency: s.charge_interval_frequency ?? s.order_interval_frequency,
    order_interval_frequency: s.order_interval_frequency,
    order_interval_unit: s.order_interval_unit,
    order_day_of_month: s.order_day_of_month ?? null,
    order_day_of_week: s.order_day_of_week ?? null,
    expire_after_specific_number_of_charges: s.expire_after_specific_number_of_charges ?? null,
    has_queued_charges: s.has_queued_charges ?? 0,
    max_retries_reached: s.max_retries_reached ?? 0,
    is_skippable: s.is_skippable ?? true,
    is_swappable: s.is_swappable ?? true,
    price: s.price,
    quantity: s.quantity,
    product_title: s.product_title,
    variant_title: s.variant_title ?? '',
    sku: s.sku ?? null,
    sku_override: s.sku_override ?? false,
    properties: s.properties ?? [],
  };
}

export function normalizeCharge(c: BillingChargeInput, now: number): BillingCharge {
  return {
    id: c.id,
    address_id: c.address_id,
    customer_id: c.customer_id,
    status: c.status.toUpperCase(),
    scheduled_at: c.scheduled_at,
    processed_at: c.processed_at ?? null,
    total_price: c.total_price ?? '0.00',
    updated_at: c.updated_at ?? billingTimestamp(now),
  };
}
