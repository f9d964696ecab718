import {
  requireAddressOrCharge,
  type OnetimeQuery,
  type ReactivateQuery,
  type SubscribeQuery,
} from '../../domain/params/billing.js';
import type { PurchaseRequest } from './purchase.js';

// The billing endpoints' requests from their decoded parameters: request mappers live in `services/<area>/params.ts`.

export interface ReactivateParams {
  customerId: number;
  subscriptionIds: number[] | 'all';
  campaignId: number | null;
  discountCode: string | null;
  tk: string | null;
  live: boolean;
}

/** The reactivation context's request, from its decoded parameters. */
export function reactivateParamsOf(values: ReactivateQuery): ReactivateParams {
  return {
    customerId: values.billing_customer_id,
    subscriptionIds: values.billing_subscription_ids,
    campaignId: values.campaign_id,
    discountCode: values.billing_discount_code,
    tk: values.tk,
    live: values.request_type === 'live',
  };
}

export interface OnetimeRequest {
  addressId: number | null;
  chargeId: number | null;
  variantId: number;
  quantity: number;
  date: string | null; // YYYY-MM-DD, 'today' or 'tomorrow'
  chargeNow: boolean;
  widgetId: string | null;
}

/** The request of a one-time purchase, from its decoded parameters. */
export function onetimeRequestOf(values: OnetimeQuery): OnetimeRequest {
  requireAddressOrCharge(values);
  return {
    addressId: values.address_id,
    chargeId: values.charge_id,
    variantId: values.shop_variant_id,
    quantity: values.quantity,
    date: values.next_charge_scheduled_at,
    chargeNow: values.charge_now,
    widgetId: values.widget_id,
  };
}

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
