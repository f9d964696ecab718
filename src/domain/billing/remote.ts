import { BadGatewayError } from '../errors.js';
import type {
  BillingAddress,
  BillingCharge,
  BillingCustomer,
  BillingOrder,
  BillingSubscription,
  Onetime,
} from './types.js';

/**
 * The billing provider's REST objects, version 2021-11, mapped to the shapes Rebound serves
 * (docs/billing.md, "The remote provider"). Only the fields read here are typed; the provider
 * may send more. Ids of the storefront platform come as `{ecommerce: "<id>"}` objects.
 */
export type ExternalId = { ecommerce?: string | number | null } | null | undefined;
type Text = string | null | undefined;

export interface RemoteCustomer {
  id: number;
  hash?: Text;
  external_customer_id?: ExternalId;
  email?: Text;
  first_name?: Text;
  last_name?: Text;
  phone?: Text;
  created_at?: Text;
  updated_at?: Text;
  first_charge_processed_at?: Text;
  has_valid_payment_method?: boolean | null;
  has_payment_method_in_dunning?: boolean | null;
  subscriptions_active_count?: number | null;
  subscriptions_total_count?: number | null;
}

export interface RemoteSubscription {
  id: number;
  address_id: number;
  customer_id: number;
  external_product_id?: ExternalId;
  external_variant_id?: ExternalId;
  status?: Text;
  cancellation_reason?: Text;
  cancellation_reason_comments?: Text;
  cancelled_at?: Text;
  created_at?: Text;
  updated_at?: Text;
  next_charge_scheduled_at?: Text;
  charge_interval_frequency?: number | string | null;
  order_interval_frequency?: number | string | null;
  order_interval_unit?: Text;
  order_day_of_month?: number | null;
  order_day_of_week?: number | null;
  expire_after_specific_number_of_charges?: number | null;
  has_queued_charges?: boolean | null;
  max_retries_reached?: boolean | null;
  is_skippable?: boolean | null;
  is_swappable?: boolean | null;
  price?: string | number | null;
  quantity?: number | null;
  product_title?: Text;
  variant_title?: Text;
  sku?: Text;
  sku_override?: boolean | null;
  properties?: { name: string; value: string }[] | null;
}

export interface RemoteAddress {
  id: number;
  customer_id: number;
  address1?: Text;
  city?: Text;
  zip?: Text;
  country_code?: Text;
  updated_at?: Text;
  discounts?: { id?: number; code?: string }[] | null;
}

export interface RemoteLineItem {
  purchase_item_id?: number | null;
  purchase_item_type?: Text;
  external_product_id?: ExternalId;
  external_variant_id?: ExternalId;
  quantity?: number | null;
  title?: Text;
  unit_price?: string | number | null;
  price?: string | number | null;
}

export interface RemoteCharge {
  id: number;
  address_id: number;
  customer?: { id?: number } | null;
  customer_id?: number | null;
  status?: Text;
  scheduled_at?: Text;
  processed_at?: Text;
  total_price?: string | number | null;
  updated_at?: Text;
  error?: Text;
  error_type?: Text;
  external_order_id?: ExternalId;
  line_items?: RemoteLineItem[] | null;
}

export interface RemoteOnetime {
  id: number;
  address_id: number;
  customer_id: number;
  external_product_id?: ExternalId;
  external_variant_id?: ExternalId;
  quantity?: number | null;
  price?: string | number | null;
  product_title?: Text;
  variant_title?: Text;
  next_charge_scheduled_at?: Text;
  is_cancelled?: boolean | null;
  created_at?: Text;
  updated_at?: Text;
  properties?: { name: string; value: string }[] | null;
}

/**
 * `2021-11-17T10:12:33+00:00`, `…Z`, `2021-11-17T10:12:33` or
 * `2021-11-17` → `YYYY-MM-DDTHH:MM:SS` in UTC (the public API's form).
 */
export function remoteTimestamp(value: Text): string | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text}T00:00:00`;
  const hasOffset = /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(text);
  const ms = Date.parse(hasOffset ? text : `${text.replace(' ', 'T')}Z`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().slice(0, 19);
}

/**
 * A platform id from `{ecommerce: "123"}` (or its GID); 0 when the provider has none (a product it does
 * not know). One it gives that is no id (`"abc"`, past 2^53) is unreadable: not taken for none.
 */
export function externalId(value: ExternalId): number {
  const raw = value?.ecommerce;
  if (raw === undefined || raw === null || raw === '') return 0;
  // Digits, or the platform's `gid://shopify/Product/42`.
  const digits =
    typeof raw === 'string' ? /^(?:gid:\/\/[^/]+\/[A-Za-z]+\/)?(\d{1,16})$/.exec(raw.trim())?.[1] : undefined;
  const n = typeof raw === 'number' ? raw : digits !== undefined ? Number(digits) : -1;
  if (!Number.isSafeInteger(n) || n < 0) throw unreadable('a platform id');
  return n;
}

const unreadable = (what: string) =>
  new BadGatewayError(`The billing provider answered ${what} Rebound cannot read.`, 'upstream_invalid');

/** Text the provider may leave out (null then); one it gives must be text: an object was shown as [object Object]. */
function optionalText(value: unknown, what: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw unreadable(what);
  return value;
}

/** A whole number from `min` to `max` the provider may leave out (null then). */
function optionalWhole(value: unknown, what: string, min: number, max: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw unreadable(what);
  return value;
}

/** The most a price of the provider's may be: what money columns and answers hold exactly. */
const MAX_PRICE = 1e12;

/** A price the provider may leave out (0 then); one it gives must be an amount: 1e308 was shown as sent. */
function price(value: unknown, what: string): number {
  if (value === undefined || value === null || value === '') return 0;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n >= MAX_PRICE) throw unreadable(what);
  return Number(n.toFixed(2));
}

function requireId(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw new BadGatewayError(`The billing provider answered a ${what} without a valid id.`, 'upstream_invalid');
  return value;
}

/** An id the provider may leave out (0 then); one it gives must be an id: "abc" was stored as sent on SQLite. */
function optionalId(value: unknown, what: string): number {
  return value === undefined || value === null ? 0 : requireId(value, what);
}

const text = (value: Text): string => (typeof value === 'string' ? value : '');
const money = (value: string | number | null | undefined): string => {
  const n = typeof value === 'number' ? value : Number.parseFloat(value ?? '');
  return Number.isFinite(n) ? n.toFixed(2) : '0.00';
};
const flag = (value: boolean | null | undefined): number => (value ? 1 : 0);

export function customerFromRemote(c: RemoteCustomer): BillingCustomer {
  const created = remoteTimestamp(c.created_at) ?? '';
  const active = c.subscriptions_active_count ?? 0;
  return {
    id: requireId(c.id, 'customer'),
    hash: text(c.hash),
    shop_customer_id: externalId(c.external_customer_id) ? String(externalId(c.external_customer_id)) : '',
    email: text(c.email),
    created_at: created,
    updated_at: remoteTimestamp(c.updated_at) ?? created,
    first_charge_processed_at: remoteTimestamp(c.first_charge_processed_at),
    first_name: text(c.first_name),
    last_name: text(c.last_name),
    // 2021-11 keeps billing addresses on payment methods, not on the customer: the public API's fields stay empty.
    billing_address1: '',
    billing_address2: '',
    billing_zip: '',
    billing_city: '',
    billing_company: '',
    billing_province: '',
    billing_country: '',
    billing_phone: text(c.phone),
    processor_type: '',
    status: active > 0 ? 'ACTIVE' : 'INACTIVE',
    has_valid_payment_method: c.has_valid_payment_method === true,
    reason_payment_method_not_valid: null,
    has_card_error_in_dunning: c.has_payment_method_in_dunning === true,
    number_active_subscriptions: active,
    number_subscriptions: c.subscriptions_total_count ?? 0,
  };
}

export function subscriptionFromRemote(s: RemoteSubscription): BillingSubscription {
  const created = remoteTimestamp(s.created_at) ?? '';
  const productId = externalId(s.external_product_id);
  const orderFrequency = String(s.order_interval_frequency ?? s.charge_interval_frequency ?? '1');
  return {
    id: requireId(s.id, 'subscription'),
    address_id: requireId(s.address_id, 'subscription address'),
    customer_id: requireId(s.customer_id, 'subscription customer'),
    // 2021-11 has no product id of its own: the public API's billing_product_id carries the platform's.
    billing_product_id: productId,
    shop_product_id: productId,
    shop_variant_id: externalId(s.external_variant_id),
    status: text(s.status).toUpperCase(),
    cancellation_reason: optionalText(s.cancellation_reason, "a subscription's cancellation reason"),
    cancellation_reason_comments: optionalText(s.cancellation_reason_comments, "a subscription's cancellation comment"),
    cancelled_at: remoteTimestamp(s.cancelled_at),
    created_at: created,
    updated_at: remoteTimestamp(s.updated_at) ?? created,
    next_charge_scheduled_at: remoteTimestamp(s.next_charge_scheduled_at),
    charge_interval_frequency: String(s.charge_interval_frequency ?? orderFrequency),
    order_interval_frequency: orderFrequency,
    order_interval_unit: text(s.order_interval_unit) || 'month',
    order_day_of_month: optionalWhole(s.order_day_of_month, "a subscription's day of the month", 0, 31),
    order_day_of_week: optionalWhole(s.order_day_of_week, "a subscription's day of the week", 0, 6),
    expire_after_specific_number_of_charges: optionalWhole(
      s.expire_after_specific_number_of_charges,
      "a subscription's number of charges",
      0,
      1_000_000,
    ),
    has_queued_charges: flag(s.has_queued_charges),
    max_retries_reached: flag(s.max_retries_reached),
    is_skippable: s.is_skippable !== false,
    is_swappable: s.is_swappable !== false,
    price: price(s.price, "a subscription's price"),
    quantity: optionalWhole(s.quantity, "a subscription's quantity", 0, 1_000_000) ?? 1,
    product_title: text(s.product_title),
    variant_title: text(s.variant_title),
    sku: optionalText(s.sku, "a subscription's SKU"),
    sku_override: s.sku_override === true,
    properties: Array.isArray(s.properties)
      ? s.properties.map((p) => ({ name: String(p.name), value: String(p.value) }))
      : [],
  };
}

export function addressFromRemote(a: RemoteAddress): BillingAddress {
  return {
    id: requireId(a.id, 'address'),
    customer_id: requireId(a.customer_id, 'address customer'),
    address1: text(a.address1),
    city: text(a.city),
    zip: text(a.zip),
    country_code: text(a.country_code).toUpperCase(),
    discount_code: a.discounts?.find((d) => typeof d.code === 'string')?.code ?? null,
    updated_at: remoteTimestamp(a.updated_at) ?? '',
  };
}

export function chargeFromRemote(c: RemoteCharge): BillingCharge {
  return {
    id: requireId(c.id, 'charge'),
    address_id: requireId(c.address_id, 'charge address'),
    customer_id: optionalId(c.customer?.id ?? c.customer_id, 'charge customer'),
    status: text(c.status).toUpperCase(),
    scheduled_at: remoteTimestamp(c.scheduled_at) ?? '',
    processed_at: remoteTimestamp(c.processed_at),
    total_price: money(c.total_price),
    updated_at: remoteTimestamp(c.updated_at) ?? '',
  };
}

export function onetimeFromRemote(o: RemoteOnetime): Onetime {
  const created = remoteTimestamp(o.created_at) ?? '';
  const properties = Array.isArray(o.properties) ? o.properties : [];
  return {
    id: requireId(o.id, 'one-time purchase'),
    address_id: requireId(o.address_id, 'one-time purchase address'),
    customer_id: requireId(o.customer_id, 'one-time purchase customer'),
    shop_product_id: externalId(o.external_product_id),
    shop_variant_id: externalId(o.external_variant_id),
    quantity: o.quantity ?? 1,
    price: money(o.price),
    product_title: text(o.product_title),
    variant_title: text(o.variant_title),
    next_charge_scheduled_at: remoteTimestamp(o.next_charge_scheduled_at) ?? '',
    status: o.is_cancelled ? 'CANCELLED' : 'ACTIVE',
    created_at: created,
    updated_at: remoteTimestamp(o.updated_at) ?? created,
    properties: properties.map((p) => ({ name: `${p.name}`, value: `${p.value}` })),
  };
}

/** The order a processed charge made: the platform's order id when the provider reports one, else the charge's. */
export function orderFromRemoteCharge(c: RemoteCharge): BillingOrder {
  const charge = chargeFromRemote(c);
  return {
    id: externalId(c.external_order_id) || charge.id,
    charge_id: charge.id,
    customer_id: charge.customer_id,
    created_at: charge.processed_at ?? charge.updated_at,
    line_items: (c.line_items ?? []).map((li) => ({
      shop_product_id: externalId(li.external_product_id),
      shop_variant_id: externalId(li.external_variant_id),
      quantity: li.quantity ?? 1,
      price: money(li.unit_price ?? li.price),
      title: text(li.title),
    })),
  };
}

/** Whether a charge holds the given one-time purchase among its line items. */
export function chargeHoldsOnetime(c: RemoteCharge, onetimeId: number): boolean {
  return (c.line_items ?? []).some(
    (li) => li.purchase_item_id === onetimeId && (li.purchase_item_type ?? 'onetime').toLowerCase() === 'onetime',
  );
}
