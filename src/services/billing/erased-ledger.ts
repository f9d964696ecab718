import { billingCustomersOfErased, blankErasedBefore, type ErasedKind } from '../../domain/billing/erasure.js';
import { erasedIdentityDigest } from '../../domain/erasure.js';
import type { PrivacyStore } from '../../store/kysely/privacy.js';

type ErasureReader = Pick<PrivacyStore, 'erasures' | 'erasedDigests' | 'recordErasedBillingCustomers'>;

/**
 * Ledger documents as an erasure left them, blanked in place before they are stored: a provider's
 * webhook retried, or an old export imported again, dated before the erasure of the customer it is
 * about. That includes a billing customer the erasure never saw (the provider told of it only
 * after), linked to the erased customer or named by an e-mail the erasure covered: it is recorded
 * as erased, so its addresses and subscriptions are blanked as they come too (docs/operations.md,
 * "Privacy").
 */
export async function asErasureLeftThem(
  store: ErasureReader,
  shopId: number,
  kind: ErasedKind,
  docs: readonly { id: number; customer_id?: number; updated_at: string }[],
): Promise<void> {
  const erasures = await store.erasures(shopId);
  let billing = erasures.billingCustomers;
  if (kind === 'customers' && erasures.customers.size > 0) {
    const emails = docs.flatMap((doc) => {
      const email = (doc as { email?: unknown }).email;
      return typeof email === 'string' && email.trim() !== '' ? [email] : [];
    });
    const digests = await store.erasedDigests(
      shopId,
      emails.map((email) => erasedIdentityDigest('email', email)),
    );
    const found = billingCustomersOfErased(docs, erasures.customers, (email) =>
      digests.get(erasedIdentityDigest('email', email)),
    );
    const unseen = new Map([...found].filter(([id]) => !billing.has(id)));
    if (unseen.size > 0) {
      await store.recordErasedBillingCustomers(shopId, unseen);
      billing = new Map([...billing, ...unseen]);
    }
  }
  blankErasedBefore(kind, docs, billing);
}
