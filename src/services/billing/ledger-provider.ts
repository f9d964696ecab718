import { sourceProperty } from '../../domain/attribution/source.js';
import { billingTimestamp, nextIntervalDate } from '../../domain/billing/dates.js';
import type {
  BillingAddress,
  BillingCharge,
  BillingCustomer,
  BillingOrder,
  BillingSubscription,
  Onetime,
} from '../../domain/billing/types.js';
import { withSubscriptionTally } from '../../domain/billing/normalize.js';
import { formatMoney } from '../../domain/catalog/money.js';
import type { BillingStore, OnetimeWrite } from '../../store/kysely/billing.js';
import { idempotencyRefused } from './idempotency.js';
import { ledgerSubscriptions } from './ledger-subscribe.js';
import { decodeOnetimeOutcome, type BillingProvider, type OnetimeOutcome, type OnetimePlan } from './provider.js';

/**
 * The ledger in Rebound's database as the billing provider. It charges no card: a charge
 * succeeds when the customer's record says the payment method is valid (docs/billing.md).
 */
export function ledgerProvider(store: BillingStore): BillingProvider {
  return {
    kind: 'ledger',
    async customer(shopId, id) {
      const [customer, subscriptions] = await Promise.all([
        store.getLedgerDoc<BillingCustomer>(shopId, 'billing_customers', id),
        store.listCustomerSubscriptions(shopId, id),
      ]);
      return customer && withSubscriptionTally(customer, subscriptions);
    },
    subscriptions: (shopId, customerId) => store.listCustomerSubscriptions(shopId, customerId),
    address: (shopId, id) => store.getLedgerDoc<BillingAddress>(shopId, 'billing_addresses', id),
    charge: (shopId, id) => store.getLedgerDoc<BillingCharge>(shopId, 'billing_charges', id),
    nextQueuedCharge: (shopId, addressId, fromDate) => store.nextQueuedCharge(shopId, addressId, fromDate),

    async reactivate(shopId, plan) {
      const stamp = billingTimestamp(plan.now);
      const nextDate = (s: BillingSubscription) =>
        nextIntervalDate(plan.today, s.order_interval_frequency, s.order_interval_unit);
      const subscriptions = plan.subscriptions.map(
        (s): BillingSubscription => ({
          ...s,
          status: 'ACTIVE',
          cancelled_at: null,
          cancellation_reason: null,
          cancellation_reason_comments: null,
          next_charge_scheduled_at: `${nextDate(s)}T00:00:00`,
          updated_at: stamp,
        }),
      );
      let address: BillingAddress | null = null;
      if (plan.discountCode && subscriptions[0]) {
        const current = await store.getLedgerDoc<BillingAddress>(
          shopId,
          'billing_addresses',
          subscriptions[0].address_id,
        );
        if (current && current.customer_id === plan.customerId)
          address = { ...current, discount_code: plan.discountCode, updated_at: stamp };
      }
      await store.saveReactivation(shopId, { subscriptions, address });
      const discount =
        plan.discountCode === null
          ? null
          : address
            ? { applied: true as const }
            : { applied: false as const, reason: "the subscription's address is not on file" };
      return { subscriptions, discount };
    },

    createSubscription: ledgerSubscriptions(store),

    async createOnetime(shopId, plan, idempotency) {
      const customer = await store.getLedgerDoc<BillingCustomer>(shopId, 'billing_customers', plan.address.customer_id);
      const stored = await store.createOnetime(shopId, idempotency, (ids) => onetimeWrite(plan, customer, ids));
      if (stored.state !== 'done') throw idempotencyRefused(stored.state);
      return { ...decodeOnetimeOutcome(stored.outcome), replayed: stored.replayed };
    },
  };
}

/** The documents a one-time purchase writes to the ledger, and its outcome. */
function onetimeWrite(
  plan: OnetimePlan,
  customer: BillingCustomer | null,
  ids: { onetime: number; charge: number; order: number },
): OnetimeWrite {
  const stamp = billingTimestamp(plan.now);
  const price = formatMoney(plan.unitPrice);
  const paid = customer?.has_valid_payment_method === true;
  const { address } = plan;
  const onetime: Onetime = {
    id: ids.onetime,
    address_id: address.id,
    customer_id: address.customer_id,
    shop_product_id: plan.productId,
    shop_variant_id: plan.variantId,
    quantity: plan.quantity,
    price,
    product_title: plan.productTitle,
    variant_title: plan.variantTitle,
    next_charge_scheduled_at: `${plan.date}T00:00:00`,
    status: plan.chargeNow && !paid ? 'CANCELLED' : 'ACTIVE',
    created_at: stamp,
    updated_at: stamp,
    properties: sourceProperty(plan.source),
  };
  if (!plan.chargeNow)
    return {
      outcome: { kind: 'created', onetime, charge: null, order: null } satisfies OnetimeOutcome,
      docs: [{ kind: 'billing_onetimes', doc: { ...onetime } }],
    };
  const charge: BillingCharge = {
    id: ids.charge,
    address_id: address.id,
    customer_id: address.customer_id,
    status: paid ? 'SUCCESS' : 'ERROR',
    scheduled_at: stamp,
    processed_at: stamp,
    total_price: formatMoney(plan.unitPrice * plan.quantity),
    updated_at: stamp,
  };
  if (!paid) {
    const reason = customer?.reason_payment_method_not_valid ?? 'the customer has no valid payment method';
    return {
      outcome: {
        kind: 'payment_failed',
        message: `The charge failed: ${reason}. The one-time purchase was cancelled.`,
        charge,
      } satisfies OnetimeOutcome,
      docs: [
        { kind: 'billing_onetimes', doc: { ...onetime } },
        { kind: 'billing_charges', doc: { ...charge } },
      ],
    };
  }
  const order: BillingOrder = {
    id: ids.order,
    charge_id: charge.id,
    customer_id: address.customer_id,
    created_at: stamp,
    line_items: [
      {
        shop_product_id: plan.productId,
        shop_variant_id: plan.variantId,
        quantity: plan.quantity,
        price,
        title: plan.productTitle,
      },
    ],
  };
  return {
    outcome: { kind: 'created', onetime, charge, order } satisfies OnetimeOutcome,
    docs: [
      { kind: 'billing_onetimes', doc: { ...onetime } },
      { kind: 'billing_charges', doc: { ...charge } },
      { kind: 'billing_orders', doc: { ...order, updated_at: stamp } },
    ],
  };
}
