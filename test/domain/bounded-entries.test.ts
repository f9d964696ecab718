import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { boundedEntries } from '../../src/domain/maps.js';

/** Caches bounded by entry count without allocating every entry up front. */
describe('boundedEntries', () => {
  it('keeps at most the given number of entries, dropping the least recently used', () => {
    const cache = new LRUCache<string, number>(boundedEntries(3));
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i);
    cache.get('a');
    cache.set('d', 3);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    expect(cache.size).toBe(3);
  });

  it('works with a time to live', () => {
    const cache = new LRUCache<string, number>({ ...boundedEntries(2), ttl: 60_000 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.has('a')).toBe(false);
    expect(cache.get('c')).toBe(3);
  });
});
