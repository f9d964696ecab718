import { afterEach, describe, expect, it, vi } from 'vitest';
import { RSS_PER_ESTIMATED_BYTE, Residency } from '../../src/indexes/residency.js';
import type { ShopMemory } from '../../src/indexes/shop-memory.js';

const MB = 1024 * 1024;

/** A holder whose shops weigh what the test says. */
function holder(sizes: Map<number, number>): ShopMemory & { evicted: number[] } {
  const evicted: number[] = [];
  return {
    evicted,
    bytes: (id) => sizes.get(id) ?? 0,
    evict: (id) => {
      evicted.push(id);
      sizes.delete(id);
    },
  };
}

/** Shops 1 to 3 of 40 bytes each under an allowance of 100: two fit. */
function twoOfThree() {
  const sizes = new Map([1, 2, 3].map((id) => [id, 40]));
  const catalog = holder(sizes);
  const residency = new Residency({ budgetBytes: Infinity, allowanceBytes: 100 });
  residency.register(catalog);
  return { sizes, catalog, residency };
}

describe('Residency', () => {
  afterEach(() => vi.useRealTimers());

  it('gives the shops what the budget leaves after the baseline, the reserve and the garbage headroom', () => {
    let measured = 0;
    const residency = new Residency({
      budgetBytes: 1024 * MB,
      reserveBytes: 64 * MB,
      baseline: () => {
        measured++;
        return 200 * MB;
      },
    });
    const expected = Math.floor((1024 * MB - 200 * MB - 64 * MB - 0.2 * 1024 * MB) / RSS_PER_ESTIMATED_BYTE);
    expect(residency.allowanceBytes).toBe(expected);
    expect(residency.allowanceBytes).toBe(expected);
    expect(measured).toBe(1); // the baseline is read once
    expect(new Residency({ budgetBytes: 128 * MB, baseline: () => 200 * MB }).allowanceBytes).toBe(16 * MB);
    // A small node: the headroom is a fifth of its budget, not a fixed amount larger than what is left.
    expect(new Residency({ budgetBytes: 256 * MB, baseline: () => 100 * MB }).allowanceBytes).toBe(
      Math.floor((256 * MB - 100 * MB - 0.2 * 256 * MB) / RSS_PER_ESTIMATED_BYTE),
    );
    expect(new Residency().allowanceBytes).toBe(Infinity);
  });

  it('evicts the shops used least from every holder until the estimate fits; one load a residency', () => {
    const { catalog, residency } = twoOfThree();
    residency.loaded(1);
    residency.loaded(2);
    residency.loaded(2); // a reload of a resident shop is not a new load
    residency.touch(1);
    residency.loaded(3);
    expect(catalog.evicted).toEqual([2]);
    expect(residency.loads).toBe(3);
    expect(residency.evictions).toBe(1);
    expect(residency.residentShops).toBe(2);
    expect(residency.isResident(2)).toBe(false);
    expect(residency.estimatedBytes()).toBe(80);
  });

  it('keeps a shop used often lately over newer shops used once, the least recent going first among equals', () => {
    const sizes = new Map([1, 2, 3, 4, 5].map((id) => [id, 40]));
    const catalog = holder(sizes);
    const residency = new Residency({ budgetBytes: Infinity, allowanceBytes: 100 });
    residency.register(catalog);
    residency.loaded(1);
    for (let i = 0; i < 4; i++) residency.use(1);
    // A tail of shops asked for once each: by recency alone each would push out shop 1 in turn.
    for (const id of [2, 3, 4]) {
      residency.loaded(id);
      residency.use(id);
    }
    expect(catalog.evicted).toEqual([2, 3]);
    expect(residency.isResident(1)).toBe(true);
    // Of two shops used alike, the least recently used leaves: 1 and 4 are both used five times now.
    for (let i = 0; i < 4; i++) residency.use(4);
    residency.use(1);
    residency.loaded(5);
    expect(catalog.evicted).toEqual([2, 3, 4]);
  });

  it('counts every use of the shop used last, and none of a shop that was dropped while it was the last', () => {
    const { sizes, catalog, residency } = twoOfThree();
    residency.loaded(1);
    residency.loaded(2);
    for (let i = 0; i < 3; i++) residency.use(2); // the newest shop's repeats: 4 uses in all
    residency.use(1); // 2 uses
    residency.loaded(3);
    expect(catalog.evicted).toEqual([1]);

    // Shop 3 is the last used; deleted, its requests until a new load count nothing.
    residency.use(2); // 5 uses
    residency.use(3); // 2 uses
    residency.forget(3);
    for (let i = 0; i < 8; i++) residency.use(3);
    expect(residency.isResident(3)).toBe(false);
    sizes.set(3, 40);
    residency.loaded(3); // 1 use, as a newcomer's
    residency.use(2);
    sizes.set(1, 40);
    residency.loaded(1); // 3 (1 use, used before) goes before 2 (6)
    expect(catalog.evicted).toEqual([1, 3, 3]);
  });

  it('evicts several shops for one large load in order of uses, the least recent of equals first', () => {
    const sizes = new Map([1, 2, 3, 4, 5].map((id) => [id, 10]));
    sizes.set(6, 25);
    const catalog = holder(sizes);
    const residency = new Residency({ budgetBytes: Infinity, allowanceBytes: 50 });
    residency.register(catalog);
    for (const id of [1, 2, 3, 4, 5]) residency.loaded(id); // one use each
    for (const [id, times] of [
      [1, 3],
      [3, 1],
      [5, 2],
    ]) {
      for (let i = 0; i < times!; i++) residency.use(id!);
    }
    residency.loaded(6); // 75 over 50: three of the small shops go
    expect(catalog.evicted).toEqual([2, 4, 3]);
    expect(residency.evictionOrder()).toEqual([6, 5, 1]);
  });

  it('gives up shops when resident memory passes 90% of the budget, and takes them again when it falls', () => {
    vi.useFakeTimers();
    const sizes = new Map([
      [1, 10 * MB],
      [2, 10 * MB],
      [3, 10 * MB],
    ]);
    const catalog = holder(sizes);
    let rss = 100 * MB;
    let reads = 0;
    const residency = new Residency({
      budgetBytes: 1000 * MB,
      allowanceBytes: 40 * MB,
      rss: () => {
        reads++;
        return rss;
      },
    });
    residency.register(catalog);
    residency.loaded(1);
    residency.loaded(2);
    residency.loaded(3);
    expect(catalog.evicted).toEqual([]);
    expect(reads).toBe(1); // read once for the three loads of the same moment
    rss = 900 * MB + 25 * MB * RSS_PER_ESTIMATED_BYTE; // 25 MB of estimate over the soft limit
    vi.advanceTimersByTime(250);
    residency.trim();
    expect(catalog.evicted).toEqual([1, 2]); // 40 - 25 = 15 MB left: one 10 MB shop fits
    rss = 100 * MB;
    vi.advanceTimersByTime(250);
    sizes.set(4, 10 * MB);
    sizes.set(5, 10 * MB);
    residency.loaded(4);
    residency.loaded(5);
    expect(catalog.evicted).toEqual([1, 2]); // the whole share again: 3, 4 and 5 fit
    expect(residency.residentShops).toBe(3);
  });

  it('keeps pinned shops and forgets deleted ones without counting an eviction', () => {
    const sizes = new Map([
      [1, 60],
      [2, 60],
    ]);
    const catalog = holder(sizes);
    const residency = new Residency({ budgetBytes: Infinity, allowanceBytes: 100 });
    residency.register(catalog);
    const release = residency.pin(1);
    residency.loaded(1);
    residency.loaded(2);
    expect(catalog.evicted).toEqual([]); // 1 is pinned, 2 was just loaded: over the budget for now
    release();
    residency.trim();
    expect(catalog.evicted).toEqual([1]);
    residency.forget(2);
    expect(residency.residentShops).toBe(0);
    expect(residency.evictions).toBe(1);
  });
});
