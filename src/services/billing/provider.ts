import type {
  BillingAddress,
  BillingCharge,
  BillingCustomer,
  BillingOrder,
  BillingSubscription,
  Onetime,
} from '../../domain/billing/types.js';

/** What reactivating a customer's subscriptions asks of the provider. */
export interface ReactivationPlan {
  customerId: number;
  /** The subscriptions to activate: none of them ACTIVE. */
  subscriptions: BillingSubscription[];
  /** Recorded on the first subscription's address after activation. */
  discountCode: string | null;
  /** Today in the shop's time zone (`YYYY-MM-DD`), for the next charge date the ledger sets. */
  today: string;
  now: number;
}

export interface ReactivationResult {
  /** The subscriptions as they are now. */
  subscriptions: BillingSubscription[];
  /** Null when no code was asked for; else whether it was recorded, and why not. */
  discount: { applied: true } | { applied: false; reason: string } | null;
}

/** A one-time purchase, resolved and validated by the service. */
export interface OnetimePlan {
  address: BillingAddress;
  productId: number;
  productTitle: string;
  variantId: number;
  variantTitle: string;
  /** Unit price in the shop's currency, as the catalog has it. */
  unitPrice: number;
  quantity: number;
  /** `YYYY-MM-DD`. */
  date: string;
  chargeNow: boolean;
  /** `widget:<widget_id>` when a widget sold it: kept as its `_rebound_source` property, for attribution. */
  source: string | null;
  now: number;
}

/** A new subscription, resolved and validated by the service. */
export interface SubscriptionPlan {
  address: BillingAddress;
  productId: number;
  productTitle: string;
  variantId: number;
  variantTitle: string;
  sku: string | null;
  /** Unit price in the shop's currency, as the catalog has it. */
  unitPrice: number;
  quantity: number;
  /** `YYYY-MM-DD`: the first charge. */
  date: string;
  orderIntervalUnit: 'day' | 'week' | 'month';
  orderIntervalFrequency: number;
  chargeIntervalFrequency: number;
  /** `widget:<widget_id>` when a widget sold it: kept as its `_rebound_source` property, for attribution. */
  source: string | null;
  now: number;
}

/** What a one-time purchase came to: created (charged or not), or a charge the card refused. */
export type OnetimeOutcome =
  | { kind: 'created'; onetime: Onetime; charge: BillingCharge | null; order: BillingOrder | null }
  | { kind: 'payment_failed'; message: string; charge: BillingCharge };

export interface Idempotency {
  key: string;
  /** Digest of the request's parameters: the same key with other parameters is a conflict. */
  hash: string;
}

/**
 * The subscription-billing provider as the services see it: Rebound's own ledger, or a remote
 * provider's API (docs/billing.md). Reads answer the public API's shapes; null means "not this shop's".
 */
export interface BillingProvider {
  readonly kind: 'ledger' | 'remote';
  customer(shopId: number, id: number): Promise<BillingCustomer | null>;
  subscriptions(shopId: number, customerId: number): Promise<BillingSubscription[]>;
  address(shopId: number, id: number): Promise<BillingAddress | null>;
  charge(shopId: number, id: number): Promise<BillingCharge | null>;
  /** The earliest QUEUED charge of an address scheduled on or after a date. */
  nextQueuedCharge(shopId: number, addressId: number, fromDate: string): Promise<BillingCharge | null>;
  reactivate(shopId: number, plan: ReactivationPlan): Promise<ReactivationResult>;
  /**
   * Creates a one-time purchase (and with `chargeNow` charges it) at most once per idempotency
   * key: a repeat gets the first outcome with `replayed`; other parameters are a ConflictError.
   */
  createOnetime(
    shopId: number,
    plan: OnetimePlan,
    idempotency: Idempotency | null,
  ): Promise<OnetimeOutcome & { replayed: boolean }>;
  /** Creates an ACTIVE subscription at most once per idempotency key, as `createOnetime`. */
  createSubscription(
    shopId: number,
    plan: SubscriptionPlan,
    idempotency: Idempotency | null,
  ): Promise<{ subscription: BillingSubscription; replayed: boolean }>;
}

/** Reads a stored outcome, including those stored before outcomes were typed ({data} / {error, charge}). */
export function decodeOnetimeOutcome(text: string): OnetimeOutcome {
  const stored = JSON.parse(text) as Record<string, unknown>;
  if (stored.kind === 'created' || stored.kind === 'payment_failed') return stored as unknown as OnetimeOutcome;
  if (stored.data)
    return {
      kind: 'created',
      ...(stored.data as { onetime: Onetime; charge: BillingCharge | null; order: BillingOrder | null }),
    };
  return { kind: 'payment_failed', message: String(stored.error), charge: stored.charge as BillingCharge };
}
