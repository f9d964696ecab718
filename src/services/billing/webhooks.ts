import { createHmac } from 'node:crypto';
import type { LedgerKind } from '../../domain/billing/types.js';
import { InvalidInputError, NotFoundError, UnauthorizedError } from '../../domain/errors.js';
import { safeEqual } from '../../domain/keys.js';
import type { Store } from '../../store/store.js';
import { ledgerDocs } from './ledger.js';

const TOPICS: Record<string, LedgerKind> = { subscription: 'subscriptions', customer: 'customers', address: 'addresses', charge: 'charges' };

/** Billing webhooks (product.md §8): signature-checked, applied once per webhook id, never older over newer. */
export function createBillingWebhooks(deps: { store: Pick<Store, 'getShopByHandle' | 'applyWebhook'>; clock?: () => number }) {
  const clock = deps.clock ?? Date.now;
  return {
    async receive(handle: string, headers: { signature?: string; topic?: string; webhookId?: string }, raw: Buffer, body: unknown): Promise<'applied' | 'duplicate'> {
      const shop = await deps.store.getShopByHandle(handle);
      if (!shop) throw new NotFoundError(`Shop ${handle} not found.`);
      if (!shop.billing_webhook_secret) throw new UnauthorizedError('Billing webhooks are not configured for this shop (set billing_webhook_secret).');
      const expected = createHmac('sha256', shop.billing_webhook_secret).update(raw).digest('hex');
      if (!headers.signature || !safeEqual(headers.signature.trim().toLowerCase(), expected)) throw new UnauthorizedError('Invalid webhook signature.');
      const kind = TOPICS[(headers.topic ?? '').split('/')[0] ?? ''];
      if (!kind) throw new InvalidInputError('X-Billing-Topic', `Unknown webhook topic "${(headers.topic ?? '').slice(0, 60)}": expected subscription/*, customer/*, address/* or charge/*.`);
      if (!headers.webhookId || headers.webhookId.length > 200) throw new InvalidInputError('X-Billing-Webhook-Id', 'The X-Billing-Webhook-Id header is required (at most 200 characters).');
      const singular = (headers.topic ?? '').split('/')[0]!;
      const document = body && typeof body === 'object' && singular in (body as object) ? (body as Record<string, unknown>)[singular] : body;
      const docs = ledgerDocs(kind, [document], clock());
      return (await deps.store.applyWebhook(shop.id, 'billing', headers.webhookId, kind, docs)) ? 'applied' : 'duplicate';
    },
  };
}

export type BillingWebhooks = ReturnType<typeof createBillingWebhooks>;
