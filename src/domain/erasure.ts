import { createHash } from 'node:crypto';

/**
 * Whether a record of a customer the shop has erased predates the erasure, and so stays forgotten: a
 * change the platform made before it, delivered again after it (a webhook's retry, one queued
 * behind it) or read again (a reconciliation of a customer the platform still holds). A change made
 * after the erasure is new data. `changedAt` null: the record says nothing of when it changed, so
 * it cannot be told from an old one (docs/operations.md, "Privacy").
 */
export function predatesErasure(erasedAt: number | undefined, changedAt: number | null): boolean {
  return erasedAt !== undefined && (changedAt === null || changedAt <= erasedAt);
}

/** What else names an erased customer on rows that carry no customer id. */
export type ErasedIdentityKind = 'email' | 'session' | 'cart';

/**
 * A one-way digest of an identity an erasure covered (an e-mail, a browser session, a cart token):
 * what a later write is checked against, so a beacon or retry naming the customer only by it, dated
 * before the erasure, is not stored, and no erasure record holds the address or the token itself.
 * E-mails as the store compares them, composed (NFC) and case folded.
 */
export function erasedIdentityDigest(kind: ErasedIdentityKind, value: string): string {
  const normal = kind === 'email' ? value.trim().normalize('NFC').toLowerCase() : value;
  return digest(kind, normal);
}

const digest = (kind: string, value: string) => createHash('sha256').update(`${kind}\n${value}`).digest('base64url');
