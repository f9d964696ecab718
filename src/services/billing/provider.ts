import type { BillingAddress, BillingCharge, BillingCustomer, BillingSubscription } from '../../domain/billing/types.js';
import type { OnetimeOutcome, OnetimeWrite, Store } from '../../store/store.js';

/**
 * The subscription-billing provider as the services see it. The default implementation is the
 * ledger kept in Rebound's own database; a remote provider's adapter can replace it.
 */
export interface BillingProvider {
  customer(shopId: number, id: number): Promise<BillingCustomer | null>;
  subscriptions(shopId: number, customerId: number): Promise<BillingSubscription[]>;
  address(shopId: number, id: number): Promise<BillingAddress | null>;
  charge(shopId: number, id: number): Promise<BillingCharge | null>;
  nextQueuedCharge(shopId: number, addressId: number, fromDate: string): Promise<BillingCharge | null>;
  saveReactivation(shopId: number, write: { subscriptions: BillingSubscription[]; address: BillingAddress | null; conversion: { campaignId: number; tk: string } | null }): Promise<void>;
  createOnetime(shopId: number, idempotency: { key: string; hash: string } | null, build: (ids: { onetime: number; charge: number; order: number }) => OnetimeWrite): Promise<OnetimeOutcome>;
}

type LedgerStore = Pick<Store, 'getLedgerDoc' | 'listCustomerSubscriptions' | 'nextQueuedCharge' | 'saveReactivation' | 'createOnetime'>;

/** The ledger in Rebound's database as the billing provider. */
export function ledgerProvider(store: LedgerStore): BillingProvider {
  return {
    customer: (shopId, id) => store.getLedgerDoc<BillingCustomer>(shopId, 'billing_customers', id),
    subscriptions: (shopId, customerId) => store.listCustomerSubscriptions(shopId, customerId),
    address: (shopId, id) => store.getLedgerDoc<BillingAddress>(shopId, 'billing_addresses', id),
    charge: (shopId, id) => store.getLedgerDoc<BillingCharge>(shopId, 'billing_charges', id),
    nextQueuedCharge: (shopId, addressId, fromDate) => store.nextQueuedCharge(shopId, addressId, fromDate),
    saveReactivation: (shopId, write) => store.saveReactivation(shopId, write),
    createOnetime: (shopId, idempotency, build) => store.createOnetime(shopId, idempotency, build),
  };
}
