import { createHmac, timingSafeEqual } from 'node:crypto';

/** Default life of a reactivation link (docs/billing.md). */
export const LINK_TTL_MS = 30 * 86_400_000;

/**
 * The parameters a link is made of and signs. Anything else in a link's query (what mail tools
 * append: `utm_*`, `mc_cid`, `gclid`, …) is neither signed nor read.
 */
export const LINK_PARAMS = [
  'merchant_token',
  'billing_customer_id',
  'billing_subscription_ids',
  'billing_discount_code',
  'request_type',
  'tk',
  'campaign_id',
  'expires',
] as const;

export type LinkParams = Readonly<Record<string, string>>;

function canonical(params: LinkParams): string {
  return LINK_PARAMS.filter((k) => params[k] !== undefined)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k]!)}`)
    .join('&');
}

/** HMAC-SHA256 over the link's own parameters (LINK_PARAMS), hex. */
export function signLink(params: LinkParams, secret: string): string {
  return createHmac('sha256', secret).update(canonical(params)).digest('hex');
}

export type LinkCheck = 'valid' | 'tampered' | 'expired';

/** Checks a link's signature in constant time, then its expiry. */
export function verifyLink(params: LinkParams, secret: string, now: number): LinkCheck {
  const given = Buffer.from(params.sig ?? '', 'utf8');
  const expected = Buffer.from(signLink(params, secret), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'tampered';
  const expires = Number(params.expires);
  if (!Number.isFinite(expires) || expires * 1000 < now) return 'expired';
  return 'valid';
}
