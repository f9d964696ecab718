import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { utcDay, type StoreEvent } from '../../src/domain/events.js';
import { CatalogLoader } from '../../src/indexes/catalog-loader.js';
import { DAY_MS } from '../../src/indexes/sales.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { eventTotals, newShop, shopKeys, storeEvent, totalRows } from '../helpers/fixtures.js';

const createShop = (store: Store, handle: string) =>
  store.createShop(
    newShop(handle),
    shopKeys().map((k) => k.record),
  );

/** Views and adds of the last 30 days per handle, folded from the stored rows a day at a time. */
async function monthByHand(store: Store, shopId: number) {
  const out = new Map<string, { views: number; adds: number }>();
  for (const row of await store.listEventCounts(shopId, utcDay(Date.now() - 30 * DAY_MS))) {
    const count = out.get(row.handle) ?? { views: 0, adds: 0 };
    count.views += row.views;
    count.adds += row.adds;
    out.set(row.handle, count);
  }
  return out;
}

/** Events over the last 40 days (so some fall outside the month), three handles, two shops. */
function history(shopId: number, other: number): (StoreEvent & { shop_id: number })[] {
  const now = Date.now();
  return Array.from({ length: 120 }, (_, i) => {
    const at = now - (i % 40) * DAY_MS - (i % 7) * 60_000;
    return storeEvent(i % 11 === 0 ? other : shopId, i % 3 === 0 ? 'added' : 'viewed', `h${i % 3}`, at);
  });
}

/** Noon (UTC): the day does not turn during a test, nor does its last minutes' margin apply. */
const NOON = Date.UTC(2026, 10, 20, 12);

describe.each(backends())("a shop's month of views and adds on $name", (backend) => {
  afterAll(() => backend.cleanup());
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOON);
  });
  afterEach(() => vi.useRealTimers());

  it('is the stored counts summed, from the kept sum of past days while no past day changes', async () => {
    const store = await backend.open();
    try {
      const shop = await createShop(store, 'a');
      const other = await createShop(store, 'b');
      await store.appendEvents(history(shop.id, other.id));
      const loader = new CatalogLoader(store);

      expect(await store.getKeptEventTotals(shop.id)).toMatchObject({ totals: null });
      const first = await loader.eventCounts(shop.id);
      expect(new Map(first)).toEqual(await monthByHand(store, shop.id));
      expect(first.size).toBe(3);
      // The sum of the days before today is kept (written after the read, not awaited by it).
      await loader.copiesWritten();
      expect((await store.getKeptEventTotals(shop.id))?.totals?.handles).toEqual(['h0', 'h1', 'h2']);
      const kept = (await store.getKeptEventTotals(shop.id))!;
      expect(kept).toMatchObject({
        sinceDay: utcDay(Date.now() - 30 * DAY_MS),
        throughDay: utcDay(Date.now() - DAY_MS),
      });

      // Today's events are read at each load; what is kept stays.
      await store.appendEvents([
        storeEvent(shop.id, 'viewed', 'h1', Date.now()),
        storeEvent(shop.id, 'viewed', 'new', Date.now()),
      ]);
      expect(await store.getKeptEventTotals(shop.id)).toEqual(kept);
      expect(new Map(await loader.eventCounts(shop.id))).toEqual(await monthByHand(store, shop.id));

      // A past day's counts make what is kept stale, and a sum made before them is not stored over them.
      await store.appendEvents([storeEvent(shop.id, 'added', 'h2', Date.now() - 3 * DAY_MS)]);
      const stale = (await store.getKeptEventTotals(shop.id))!;
      expect(stale.totals).toBeNull();
      expect(stale.generation).toBeGreaterThan(kept.generation);
      expect(await store.keepEventTotals(shop.id, kept.generation, 1, 2, eventTotals([]))).toBe(false);
      expect(await store.keepEventTotals(shop.id, null, 1, 2, eventTotals([]))).toBe(false);
      expect(new Map(await loader.eventCounts(shop.id))).toEqual(await monthByHand(store, shop.id));
      await loader.copiesWritten();
      expect((await store.getKeptEventTotals(shop.id))?.totals).not.toBeNull();
      expect(new Map(await loader.eventCounts(shop.id))).toEqual(await monthByHand(store, shop.id));

      // A load reads what is kept of the past days, and sums only today's counts itself.
      const current = (await store.getKeptEventTotals(shop.id))!;
      const marked = eventTotals([{ handle: 'h0', views: 1e6, adds: 7 }]);
      expect(
        await store.keepEventTotals(shop.id, current.generation, current.sinceDay!, current.throughDay!, marked),
      ).toBe(true);
      const todays = await store.sumEventCounts(shop.id, utcDay(Date.now()));
      const h0Today = totalRows(todays).find((t) => t.handle === 'h0');
      expect((await loader.eventCounts(shop.id)).get('h0')).toEqual({
        views: 1e6 + (h0Today?.views ?? 0),
        adds: 7 + (h0Today?.adds ?? 0),
      });

      // A sum kept for another window (yesterday's load) is not used: the month is summed again.
      expect(
        await store.keepEventTotals(
          shop.id,
          stale.generation,
          1,
          2,
          eventTotals([{ handle: 'h0', views: 1e6, adds: 0 }]),
        ),
      ).toBe(true);
      expect(new Map(await loader.eventCounts(shop.id))).toEqual(await monthByHand(store, shop.id));
      expect(new Map(await loader.eventCounts(other.id))).toEqual(await monthByHand(store, other.id));
    } finally {
      await store.close();
    }
  });

  it("takes today's last minutes as a past day's: a load just past midnight may count them so", async () => {
    const store = await backend.open();
    try {
      const shop = await createShop(store, 'e');
      await store.appendEvents(history(shop.id, shop.id));
      const loader = new CatalogLoader(store);
      await loader.eventCounts(shop.id);
      await loader.copiesWritten();
      const kept = (await store.getKeptEventTotals(shop.id))!;
      expect(kept.totals).not.toBeNull();
      await store.appendEvents([storeEvent(shop.id, 'viewed', 'h1', NOON + 2 * 60_000)]);
      expect(await store.getKeptEventTotals(shop.id)).toEqual(kept);
      // Three minutes before midnight: within the margin, the row is marked stale.
      vi.setSystemTime(Date.UTC(2026, 10, 20, 23, 57));
      await store.appendEvents([storeEvent(shop.id, 'viewed', 'h1', Date.now())]);
      expect(await store.getKeptEventTotals(shop.id)).toMatchObject({ totals: null });
      // Just past midnight the day before is a past day: the load sums it, late views included.
      vi.setSystemTime(Date.UTC(2026, 10, 21, 0, 1));
      expect(new Map(await loader.eventCounts(shop.id))).toEqual(await monthByHand(store, shop.id));
    } finally {
      await store.close();
    }
  });

  it("sums the days asked, this shop's only, and is deleted with the shop", async () => {
    const store = await backend.open();
    try {
      const shop = await createShop(store, 'c');
      const other = await createShop(store, 'd');
      const day = Date.UTC(2026, 10, 10, 12);
      await store.appendEvents([
        storeEvent(shop.id, 'viewed', 'x', day),
        storeEvent(shop.id, 'viewed', 'x', day + DAY_MS),
        storeEvent(shop.id, 'added', 'x', day + 2 * DAY_MS),
        storeEvent(other.id, 'viewed', 'x', day + DAY_MS),
      ]);
      expect(totalRows(await store.sumEventCounts(shop.id, 20261111, 20261111))).toEqual([
        { handle: 'x', views: 1, adds: 0 },
      ]);
      expect(totalRows(await store.sumEventCounts(shop.id, 20261111))).toEqual([{ handle: 'x', views: 1, adds: 1 }]);
      expect(totalRows(await store.sumEventCounts(shop.id, 20261101, 20261109))).toEqual([]);
      expect(
        await store.keepEventTotals(
          shop.id,
          null,
          20261101,
          20261112,
          eventTotals([{ handle: 'x', views: 3, adds: 1 }]),
        ),
      ).toBe(
        false, // the past days' counts above made the shop's row (stale); a sum made without reading it is refused
      );
      await store.deleteShopData(shop.id);
      expect(await store.getKeptEventTotals(shop.id)).toBeNull();
      expect(await store.getKeptEventTotals(other.id)).not.toBeNull();
    } finally {
      await store.close();
    }
  });
});
