import { afterAll, describe, expect, it } from 'vitest';
import { CatalogIndex } from '../../src/indexes/catalog-index.js';
import { CountsOnDemand } from '../../src/indexes/counts-on-demand.js';
import { EventCounts } from '../../src/indexes/event-counts.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { eventTotals, newShop, product, shopKeys, storeEvent } from '../helpers/fixtures.js';

/** The real store, with its reads of event counts counted (every call goes through to it). */
function countingReads(store: Store): { store: Store; reads: () => number } {
  let reads = 0;
  const counted = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      if (name === 'sumEventCounts' || name === 'getKeptEventTotals')
        return (...args: unknown[]) => {
          reads++;
          return value.apply(target, args);
        };
      return value.bind(target);
    },
  });
  return { store: counted, reads: () => reads };
}

describe.each(backends())("a shop's event counts, read when first asked for, on $name", (backend) => {
  afterAll(() => backend.cleanup());

  async function shopWithViews(store: Store, handle: string) {
    const shop = await store.createShop(
      newShop(handle),
      shopKeys().map((k) => k.record),
    );
    await store.upsertProducts(shop.id, [product(1), product(2)]);
    const now = Date.now();
    await store.appendEvents([
      storeEvent(shop.id, 'viewed', 'product-1', now),
      storeEvent(shop.id, 'viewed', 'product-1', now),
      storeEvent(shop.id, 'added', 'product-2', now),
    ]);
    return shop.id;
  }

  it('are not read by a load; the first ask reads them once for all, and the estimate grows by them', async () => {
    const real = await backend.open();
    try {
      const { store, reads } = countingReads(real);
      const index = new CatalogIndex(store);
      const shopId = await shopWithViews(real, 'counted');
      const catalog = (await index.ensure(shopId))!;
      expect(reads()).toBe(0);
      expect(catalog.eventCountsOnDemand.now).toBeNull();
      expect(() => catalog.eventCounts).toThrow(/eventCountsOnDemand/);
      const before = index.bytes(shopId);

      const [first, second] = await Promise.all([catalog.eventCountsOnDemand.get(), catalog.eventCountsOnDemand.get()]);
      expect(second).toBe(first);
      const afterFirst = reads();
      expect(afterFirst).toBeGreaterThan(0);
      expect(first.get('product-1')).toEqual({ views: 2, adds: 0 });
      expect(first.get('product-2')).toEqual({ views: 0, adds: 1 });
      expect(catalog.eventCounts).toBe(first);
      expect(await catalog.eventCountsOnDemand.get()).toBe(first);
      expect(reads()).toBe(afterFirst);
      expect(index.bytes(shopId)).toBeGreaterThan(before);
      await index.copiesWritten();
    } finally {
      await real.close();
    }
  });

  it('are re-read by a refresh only where read, and carried over to a generation that keeps them', async () => {
    const real = await backend.open();
    try {
      const { store, reads } = countingReads(real);
      const index = new CatalogIndex(store);
      const [read, unread] = [await shopWithViews(real, 'read'), await shopWithViews(real, 'unread')];
      await index.ensure(read);
      await index.ensure(unread);
      await index.get(read)!.eventCountsOnDemand.get();
      await real.appendEvents([storeEvent(read, 'viewed', 'product-2', Date.now())]);
      await real.appendEvents([storeEvent(unread, 'viewed', 'product-2', Date.now())]);

      const before = reads();
      await index.reloadEventCounts(unread);
      expect(reads()).toBe(before);
      expect(index.get(unread)!.eventCountsOnDemand.now).toBeNull();
      await index.reloadEventCounts(read);
      expect(reads()).toBeGreaterThan(before);
      expect(index.get(read)!.eventCounts.get('product-2')).toEqual({ views: 1, adds: 1 });
      // Read now, the unread shop's counts include the view written after its load.
      expect((await index.get(unread)!.eventCountsOnDemand.get()).get('product-2')).toEqual({ views: 1, adds: 1 });

      const counts = index.get(read)!.eventCounts;
      expect(index.get(read)!.with({ experiments: [] }).eventCounts).toBe(counts);
      await index.copiesWritten();
    } finally {
      await real.close();
    }
  });
});

describe('CountsOnDemand', () => {
  it('keeps no failed read: the next ask reads again, and is told once they are read', async () => {
    const counts = EventCounts.sum(eventTotals([{ handle: 'a', views: 1, adds: 0 }]));
    let calls = 0;
    let told = 0;
    const slot = new CountsOnDemand(
      async () => {
        if (++calls === 1) throw new Error('the store is down');
        return counts;
      },
      () => told++,
    );
    await expect(slot.get()).rejects.toThrow('the store is down');
    expect(slot.now).toBeNull();
    expect(await slot.get()).toBe(counts);
    expect(await slot.get()).toBe(counts);
    expect([calls, told]).toEqual([2, 1]);
    const refreshed = slot.withCounts(EventCounts.sum());
    expect(refreshed.now?.size).toBe(0);
    expect(slot.now).toBe(counts);
  });
});
