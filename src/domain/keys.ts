import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord, KeyKind } from './shop.js';

const PREFIX: Record<KeyKind, string> = { public: 'rb_pub_', private: 'rb_priv_' };

/** How long a rotated-out key keeps working, so deployed pages and jobs can be updated. */
export const KEY_GRACE_MS = 24 * 60 * 60 * 1000;

/** A long random secret in URL-safe characters. */
export function randomSecret(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

/** Keys are high-entropy random strings, so a plain SHA-256 is enough to store them safely. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Makes a new key: the plain value (shown once) and the record that is stored. */
export function newApiKey(shopId: number, kind: KeyKind, now = Date.now()): { plain: string; record: ApiKeyRecord } {
  const plain = `${PREFIX[kind]}${randomSecret(24)}`;
  return {
    plain,
    record: {
      id: randomUUID(),
      shop_id: shopId,
      kind,
      key_hash: hashKey(plain),
      // Long enough to name one key when revoking (16 characters or more), far too short to use.
      key_prefix: plain.slice(0, PREFIX[kind].length + 12),
      created_at: now,
      expires_at: null,
    },
  };
}

/** Constant-time comparison of two secrets of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** The refusal of a public request naming a customer without that customer's signature. */
export const BAD_CUSTOMER_SIG = 'customer_sig is missing or wrong for shop_customer_id.';

/**
 * customer_sig: hex HMAC-SHA256 of the customer id with the shop's signing secret (docs/api.md, "Customer signatures").
 */
export function customerSignature(secret: string, customerId: number): string {
  return createHmac('sha256', secret).update(String(customerId)).digest('hex');
}
