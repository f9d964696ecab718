import { asErasureLeftThem } from './erased-ledger.js';
import type { PrivacyStore } from '../../store/kysely/privacy.js';
import { createHash, createHmac } from 'node:crypto';
import {
  addressFromRemote,
  chargeFromRemote,
  customerFromRemote,
  subscriptionFromRemote,
} from '../../domain/billing/remote.js';
import type { LedgerKind } from '../../domain/billing/types.js';
import {
  AppError,
  InvalidBodyError,
  InvalidDocumentError,
  InvalidInputError,
  MissingInputError,
  UnauthorizedError,
} from '../../domain/errors.js';
import { safeEqual } from '../../domain/keys.js';
import type { BillingStore, LedgerDoc } from '../../store/kysely/billing.js';
import type { ShopStore } from '../../store/kysely/shops.js';
import { webhookShop } from '../webhook-shop.js';
import { ledgerDocs } from './ledger.js';
import type { BillingProviders } from './providers.js';
import type { CachedKind } from './remote/read-cache.js';
import { parseUpstreamJson } from '../../domain/inputs/upstream-json.js';

const TOPICS = new Map<string, LedgerKind>([
  ['subscription', 'subscriptions'],
  ['customer', 'customers'],
  ['address', 'addresses'],
  ['charge', 'charges'],
]);

/** How far the signed timestamp of the newer billing dialect may be from now (docs/billing.md). */
export const SIGNATURE_TOLERANCE_S = 300;

/** The headers of both dialects: Rebound's neutral one and the billing platform's own. */
export interface BillingWebhookHeaders {
  signature?: string;
  topic?: string;
  webhookId?: string;
  legacySignature?: string;
  timedSignature?: string;
  timestamp?: string;
  platformTopic?: string;
}

type Mapped = { kind: LedgerKind; docs: LedgerDoc[]; webhookId: string };

/**
 * Maps a 2021-11 object (the body's `field`) to the ledger's document; a shape that does not map is a 422 (the provider
 * does not retry those).
 */
function fromRemote(kind: LedgerKind, object: unknown, field: string): LedgerDoc {
  if (!object || typeof object !== 'object')
    throw new InvalidDocumentError(`The webhook body has no ${field} object.`, [{ path: field, message: 'missing' }]);
  try {
    switch (kind) {
      case 'subscriptions':
        return subscriptionFromRemote(object as never);
      case 'customers':
        return customerFromRemote(object as never);
      case 'addresses':
        return addressFromRemote(object as never);
      case 'charges':
        return chargeFromRemote(object as never);
    }
  } catch (error) {
    throw new InvalidDocumentError(
      `The webhook's ${field} does not map: ${error instanceof AppError ? error.message : 'malformed'}`,
      [{ path: field, message: 'malformed' }],
    );
  }
}

/** The body, parsed only once its signature is known good. */
function parsed(raw: Buffer): unknown {
  try {
    return parseUpstreamJson(raw.toString('utf8'));
  } catch {
    throw new InvalidBodyError('The webhook body is not valid JSON.');
  }
}

/**
 * Billing webhooks: signature-checked, applied once per webhook id, never older over newer; the
 * remote provider's cached copy of the object is dropped. Both dialects land in the same ledger.
 */
export function createBillingWebhooks(deps: {
  store: ShopStore & BillingStore & Pick<PrivacyStore, 'erasures' | 'erasedDigests' | 'recordErasedBillingCustomers'>;
  providers?: Pick<BillingProviders, 'dropCached'>;
  clock?: () => number;
}) {
  const clock = deps.clock ?? Date.now;

  function neutral(secret: string, headers: BillingWebhookHeaders, raw: Buffer): Mapped {
    const expected = createHmac('sha256', secret).update(raw).digest('hex');
    if (!safeEqual(headers.signature!.trim().toLowerCase(), expected))
      throw new UnauthorizedError('Invalid webhook signature.', 'webhook_signature');
    const body = parsed(raw);
    const singular = (headers.topic ?? '').split('/')[0] ?? '';
    const kind = TOPICS.get(singular);
    if (!headers.topic) throw new MissingInputError('X-Billing-Topic', 'The X-Billing-Topic header is required.');
    if (!kind)
      throw new InvalidInputError(
        'X-Billing-Topic',
        `Unknown webhook topic "${(headers.topic ?? '').slice(0, 60)}": expected subscription/*, customer/*, ` +
          `address/* or charge/*.`,
      );
    if (!headers.webhookId || headers.webhookId.length > 200)
      throw new (headers.webhookId ? InvalidInputError : MissingInputError)(
        'X-Billing-Webhook-Id',
        'The X-Billing-Webhook-Id header is required (at most 200 characters).',
      );
    const document =
      body && typeof body === 'object' && Object.hasOwn(body, singular)
        ? (body as Record<string, unknown>)[singular]
        : body;
    return { kind, docs: ledgerDocs(kind, [document], clock()), webhookId: headers.webhookId };
  }

  /** The platform's signatures: the timestamped HMAC when present (never falling back), else the legacy plain hash. */
  function verifyPlatform(secret: string, headers: BillingWebhookHeaders, raw: Buffer): void {
    if (headers.timedSignature !== undefined) {
      const parts = new Map(headers.timedSignature.split(',').map((p) => p.trim().split('=') as [string, string]));
      const t = parts.get('t') ?? '';
      if (!/^\d{1,12}$/.test(t) || (headers.timestamp !== undefined && headers.timestamp.trim() !== t))
        throw new UnauthorizedError('Invalid webhook signature.', 'webhook_signature');
      if (Math.abs(clock() / 1000 - Number(t)) > SIGNATURE_TOLERANCE_S)
        throw new UnauthorizedError(
          "The webhook signature's timestamp is more than 5 minutes from now.",
          'webhook_signature',
        );
      const expected = createHmac('sha256', secret).update(`${t}.`).update(raw).digest('hex');
      if (!safeEqual((parts.get('v1') ?? '').toLowerCase(), expected))
        throw new UnauthorizedError('Invalid webhook signature.', 'webhook_signature');
      return;
    }
    // The legacy scheme is a plain SHA-256 of the secret followed by the body, not an HMAC.
    const expected = createHash('sha256').update(secret).update(raw).digest('hex');
    if (!safeEqual(headers.legacySignature!.trim().toLowerCase(), expected))
      throw new UnauthorizedError('Invalid webhook signature.', 'webhook_signature');
  }

  function platform(secret: string, headers: BillingWebhookHeaders, raw: Buffer): Mapped | null {
    verifyPlatform(secret, headers, raw);
    const topic = (headers.platformTopic ?? '').slice(0, 100);
    const singular = topic.split('/')[0] ?? '';
    const kind = TOPICS.get(singular);
    if (!kind) return null; // a topic Rebound does not keep (order/*, onetime/*, …): acknowledged so it is not resent
    const body = parsed(raw);
    const object =
      body && typeof body === 'object' && Object.hasOwn(body, singular)
        ? (body as Record<string, unknown>)[singular]
        : undefined;
    // The platform sends no delivery id, and signs no topic: a delivery is known by its body alone,
    // so the same body resent under another topic is a repeat.
    const webhookId = `body:${createHash('sha256').update(raw).digest('hex')}`;
    return { kind, docs: [fromRemote(kind, object, singular)], webhookId };
  }

  function dropCached(shopId: number, kind: LedgerKind, doc: LedgerDoc): void {
    const drop = (cached: CachedKind, id: number | undefined) => {
      if (id !== undefined) deps.providers?.dropCached(shopId, cached, id);
    };
    if (kind === 'subscriptions') drop('subscriptions', doc.customer_id);
    else if (kind === 'customers') drop('customer', doc.id);
    else if (kind === 'addresses') drop('address', doc.id);
    else drop('charge', doc.id);
  }

  return {
    async receive(
      handle: string,
      headers: BillingWebhookHeaders,
      raw: Buffer,
    ): Promise<'applied' | 'duplicate' | 'ignored'> {
      const { shop, secret } = await webhookShop(deps.store, handle, (s) => s.billing_webhook_secret, raw);
      let mapped: Mapped | null;
      if (headers.signature !== undefined) mapped = neutral(secret, headers, raw);
      else if (headers.timedSignature !== undefined || headers.legacySignature !== undefined)
        mapped = platform(secret, headers, raw);
      else
        throw new UnauthorizedError(
          'The webhook carries no signature (X-Billing-Hmac-Sha256, X-Recharge-Webhook-Signature or ' +
            'X-Recharge-Hmac-Sha256).',
          'webhook_signature',
        );
      if (!mapped) return 'ignored';
      // A provider's retry of a change made before an erasure is stored as the erasure left it.
      await asErasureLeftThem(deps.store, shop.id, mapped.kind, mapped.docs);
      const applied = await deps.store.applyWebhook(shop.id, 'billing', mapped.webhookId, mapped.kind, mapped.docs);
      for (const doc of mapped.docs) dropCached(shop.id, mapped.kind, doc);
      return applied ? 'applied' : 'duplicate';
    },
  };
}

export type BillingWebhooks = ReturnType<typeof createBillingWebhooks>;
