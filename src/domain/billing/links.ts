import { createHmac, timingSafeEqual } from 'node:crypto';

/** Default life of a reactivation link (product.md §7). */
export const LINK_TTL_MS = 30 * 86_400_000;

/** The parameters a link carries besides `sig`, in a fixed order for the canonical string. */
export type LinkParams = Record<string, string>;

function canonical(params: LinkParams): string {
  return Object.keys(params).filter((k) => k !== 'sig').sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k]!)}`).join('&');
}

/** HMAC-SHA256 over every parameter but `sig`, hex. */
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
