/**
 * Which worker of a node answers a connection (docs/scaling.md, "Every core"): the API key of its
 * first request, read from the request head only, hashed over the live workers by rendezvous
 * (highest random weight) hashing, so a worker that stops moves only its own shops and gets them
 * back when its replacement is up.
 */

/** Where a request head ends; nothing after it (a body) is ever read for routing. */
const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * The head of the first request in `bytes`, or null while it is incomplete. Only the request line
 * and header lines are looked at, as latin1 (keys are ASCII; anything else simply does not match).
 */
export function requestHead(bytes: Buffer): string | null {
  const end = bytes.indexOf(HEAD_END);
  return end < 0 ? null : bytes.toString('latin1', 0, end);
}

/**
 * The API key a request head carries where the API reads it first: the `key` query parameter,
 * else the `X-Api-Key` or `X-Rebuy-User-Token` header (src/http/plugins/auth.ts). A key sent
 * among body fields is not seen: such a connection goes to any worker.
 */
export function keyOfHead(head: string): string | null {
  const lineEnd = head.indexOf('\r\n');
  const requestLine = lineEnd < 0 ? head : head.slice(0, lineEnd);
  const target = requestLine.split(' ')[1] ?? '';
  const query = target.indexOf('?');
  if (query >= 0) {
    for (const pair of target.slice(query + 1).split('&')) {
      if (!pair.startsWith('key=') || pair.length === 4) continue;
      try {
        return decodeURIComponent(pair.slice(4).replace(/\+/g, ' '));
      } catch {
        return pair.slice(4);
      }
    }
  }
  if (lineEnd < 0) return null;
  for (const line of head.slice(lineEnd + 2).split('\r\n')) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name !== 'x-api-key' && name !== 'x-rebuy-user-token') continue;
    const value = line.slice(colon + 1).trim();
    if (value !== '') return value;
  }
  return null;
}

/** FNV-1a over the key's UTF-16 code units: fast, and only spread matters (the slot mix below does the rest). */
function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** MurmurHash3's finalizer of key hash and slot: the key's weight for that slot. */
function weight(hash: number, slot: number): number {
  let h = (hash ^ Math.imul(slot + 1, 0x9e3779b9)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The slot, among `live` (worker slots 0 … n-1 that are serving), with the highest weight for
 * `key`. Each slot's weight does not depend on the others, so removing a slot changes the choice
 * only for the keys it had. Null when no slot is live.
 */
export function ownerSlot(key: string, live: readonly number[]): number | null {
  const hash = keyHash(key);
  let best: number | null = null;
  let bestWeight = -1;
  for (const slot of live) {
    const w = weight(hash, slot);
    if (w > bestWeight || (w === bestWeight && best !== null && slot < best)) {
      best = slot;
      bestWeight = w;
    }
  }
  return best;
}
