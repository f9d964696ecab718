import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { answerKey, ResponseCache } from '../../src/cache/response-cache.js';

describe('ResponseCache', () => {
  it('keys answers by shop, data version and the canonical request', () => {
    const a = answerKey(1, 3, '/p?ids=1,2');
    expect(answerKey(1, 3, '/p?ids=1,2')).toBe(a);
    expect(answerKey(1, 3, '/p?ids=2,1')).not.toBe(a);
    expect(answerKey(2, 3, '/p?ids=1,2')).not.toBe(a);
    expect(answerKey(1, 4, '/p?ids=1,2')).not.toBe(a);
  });

  it('makes the gzip form of a large answer once, off the request path, when asked', async () => {
    const cache = new ResponseCache({ ttlSeconds: 60 });
    const big = Buffer.from(JSON.stringify({ data: 'x'.repeat(5000) }));
    const stored = cache.set('k', big);
    cache.compress(stored);
    cache.compress(stored);
    expect(stored.gzip).toBeNull();
    await vi.waitFor(() => expect(stored.gzip).not.toBeNull(), { timeout: 30_000 });
    expect(gunzipSync(stored.gzip!).equals(big)).toBe(true);
    expect(cache.get('k')).toBe(stored);
    expect(cache.set('small', Buffer.from('{}')).gzip).toBeNull();
    expect([cache.hits, cache.misses]).toEqual([1, 0]);
  });

  it('keeps nothing with a TTL of 0', () => {
    const cache = new ResponseCache({ ttlSeconds: 0 });
    cache.set('k', Buffer.from('{}'));
    expect(cache.get('k')).toBeUndefined();
  });

  it('evicts by size', () => {
    const cache = new ResponseCache({ ttlSeconds: 60, maxBytes: 3000 });
    cache.set('a', Buffer.alloc(1000, 32));
    cache.set('b', Buffer.alloc(1000, 32));
    cache.set('c', Buffer.alloc(1000, 32));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBeDefined();
  });

  it("drops every answer of one shop, whatever its version, and no other shop's", () => {
    const cache = new ResponseCache({ ttlSeconds: 60 });
    for (const [shop, version] of [
      [1, 3],
      [1, 4],
      [12, 3],
      [2, 1],
    ] as const)
      cache.set(answerKey(shop, version, '/p'), Buffer.from('x'));
    cache.deleteShop(1);
    expect(cache.get(answerKey(1, 3, '/p'))).toBeUndefined();
    expect(cache.get(answerKey(1, 4, '/p'))).toBeUndefined();
    expect(cache.get(answerKey(12, 3, '/p'))).toBeDefined();
    expect(cache.get(answerKey(2, 1, '/p'))).toBeDefined();
  });
});
