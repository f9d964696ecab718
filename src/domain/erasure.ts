import { createHash } from 'node:crypto';
import { numberDigits, phoneDigits, writtenInternationally } from './phone.js';

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
export type ErasedIdentityKind = 'email' | 'session' | 'cart' | 'phone';

/**
 * A one-way digest of an identity an erasure covered (an e-mail, a browser session, a cart token):
 * what a later write is checked against, so a beacon or retry naming the customer only by it, dated
 * before the erasure, is not stored, and no erasure record holds the address or the token itself.
 * E-mails as the store compares them, composed (NFC) and case folded.
 */
export function erasedIdentityDigest(kind: Exclude<ErasedIdentityKind, 'phone'>, value: string): string {
  const normal = kind === 'email' ? value.trim().normalize('NFC').toLowerCase() : value;
  return digest(kind, normal);
}

/**
 * A phone number's digests as an erasure records them. A later number is the erased one when one of
 * its digests (`phoneDigestsToFind`) is among them, as `samePhone` says: the same digits, or the same
 * last nine when one of the two is written nationally. A number of fewer than seven digits has none.
 */
export function erasedPhoneDigests(phone: string): string[] {
  const digits = numberDigits(phone);
  if (digits.length < 7) return [];
  if (digits.length < 9) return [digest('phone', digits)];
  return [digest('phone', digits), digest(writtenInternationally(phone) ? 'phone9i' : 'phone9n', digits.slice(-9))];
}

/** The digests a later number is looked up by among those `erasedPhoneDigests` recorded. */
export function phoneDigestsToFind(phone: string): string[] {
  const digits = numberDigits(phone);
  if (digits.length < 7) return [];
  if (digits.length < 9) return [digest('phone', digits)];
  const last = digits.slice(-9);
  // Recorded before numbers were told apart by how they were written: any number's last nine, its digits as written.
  const national = [digest('phone9i', last), digest('phone9', last)];
  const legacy = digest('phone', phoneDigits(phone));
  return [digest('phone', digits), legacy, digest('phone9n', last), ...(writtenInternationally(phone) ? [] : national)];
}

const digest = (kind: string, value: string) => createHash('sha256').update(`${kind}\n${value}`).digest('base64url');
