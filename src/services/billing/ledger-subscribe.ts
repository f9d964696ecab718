import { sourceProperty } from '../../domain/attribution/source.js';
import { billingTimestamp } from '../../domain/billing/dates.js';
import type { BillingSubscription } from '../../domain/billing/types.js';
import { formatMoney } from '../../domain/catalog/money.js';
import type { BillingStore } from '../../store/kysely/billing.js';
import { idempotencyRefused } from './idempotency.js';
import type { BillingProvider, SubscriptionPlan } from './provider.js';

/**
 * New subscriptions on the ledger: written with the idempotency key in one transaction, through
 * the same store write as one-time purchases (a repeat gets the stored subscription).
 */
export function ledgerSubscriptions(store: BillingStore): BillingProvider['createSubscription'] {
  return async (shopId, plan, idempotency) => {
    const stored = await store.createOnetime(
      shopId,
      idempotency,
      (ids) => {
        const subscription = subscriptionOf(plan, ids.subscription!);
        return { outcome: subscription, docs: [{ kind: 'billing_subscriptions', doc: { ...subscription } }] };
      },
      { subscription: true },
    );
    if (stored.state !== 'done') throw idempotencyRefused(stored.state);
    return { subscription: JSON.parse(stored.outcome) as BillingSubscription, replayed: stored.replayed };
  };
}

function subscriptionOf(plan: SubscriptionPlan, id: number): BillingSubscription {
  const stamp = billingTimestamp(plan.now);
  return {
    id,
    address_id: plan.address.id,
    customer_id: plan.address.customer_id,
    billing_product_id: plan.productId,
    shop_product_id: plan.productId,
    shop_variant_id: plan.variantId,
    status: 'ACTIVE',
    cancellation_reason: null,
    cancellation_reason_comments: null,
    cancelled_at: null,
    created_at: stamp,
    updated_at: stamp,
    next_charge_scheduled_at: `${plan.date}T00:00:00`,
    charge_interval_frequency: String(plan.chargeIntervalFrequency),
    order_interval_frequency: String(plan.orderIntervalFrequency),
    order_interval_unit: plan.orderIntervalUnit,
    order_day_of_month: null,
    order_day_of_week: null,
    expire_after_specific_number_of_charges: null,
    has_queued_charges: 0,
    max_retries_reached: 0,
    is_skippable: true,
    is_swappable: true,
    price: Number(formatMoney(plan.unitPrice)),
    quantity: plan.quantity,
    product_title: plan.productTitle,
    variant_title: plan.variantTitle,
    sku: plan.sku,
    sku_override: false,
    properties: sourceProperty(plan.source),
  };
}
