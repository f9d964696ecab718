/** What the Keys page says of the shop's keys (pure: tested from test/console). */

import type { KeySummary } from '../../../src/domain/shop.js';

export type { KeySummary };

/** A key's state in words: one being replaced says until when it still works. */
export function keyState(key: KeySummary, formatDate: (iso: string | null) => string): string {
  switch (key.state) {
    case 'current':
      return 'In use';
    case 'grace':
      return `Replaced: works until ${formatDate(key.expires_at)}`;
    case 'ended':
      return 'Ended';
  }
}

/**
 * What making new keys does, asked before it is done. A private key that asks for new keys ends at
 * once (a leaked one must not buy itself a day), so the console signs in with the new one.
 */
export function rotationWarning(operator: boolean): string {
  const own = operator
    ? 'The current private key also works for 24 more hours.'
    : 'The private key you signed in with ends now; this console goes on with the new one.';
  return (
    'Make new public and private keys? The current public key works for 24 more hours: put the new one in ' +
    `your storefront's pages before then. ${own} Keys replaced earlier end now.`
  );
}

/** The key this console signed in with, among the shop's (null for the operator token). */
export function signedInKey(keys: readonly KeySummary[], bearer: string): KeySummary | null {
  return keys.find((k) => k.kind === 'private' && bearer.startsWith(k.key_prefix)) ?? null;
}

/** What to do with keys just made, for whoever made them (a merchant's own private key has ended). */
export function issuedAdvice(operator: boolean, replacedUntil: string): string {
  return operator
    ? `Put the new public key in the storefront's pages and the new private key in the shop's servers before ` +
        `${replacedUntil}: the keys they replace stop working then.`
    : `The private key you signed in with has ended: this console now uses the new one, and your servers need it ` +
        `now. Put the new public key in your storefront's pages before ${replacedUntil}: the replaced one stops then.`;
}
