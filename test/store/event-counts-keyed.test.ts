import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/store/connect.js';
import { openStore } from '../../src/store/open.js';
import { backends } from '../helpers/backends.js';
import { migratedTo } from '../helpers/migrated-to.js';
import { storeEvent, totalRows } from '../helpers/fixtures.js';

const SHOP = 5;
const OTHER = 6;

/** Counts of two shops over ten days and three handles, some days without a handle. */
const ROWS = Array.from({ length: 10 }, (_, d) =>
  ['a', 'b', 'c']
    .filter((_, h) => (d + h) % 4 !== 0)
    .map((handle, h) => ({ day: 20261110 + d, handle, views: d + h + 1, adds: (d * h) % 3, removes: h })),
).flat();

describe.each(backends())('Event counts kept through their storage change on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('keeps every count, sums them per handle and adds to them as before', async () => {
    const url = await backend.url();
    // The database as the release before: its counts written, then migrated.
    const before = await migratedTo(url, '2026_11_28_0100_shop_snapshots');
    for (const shopId of [SHOP, OTHER])
      await before.db
        .insertInto('event_counts')
        .values(ROWS.map((r) => ({ shop_id: shopId, ...r, views: r.views * shopId })))
        .execute();
    await before.db.destroy();

    const store = await openStore(url);
    try {
      const stored = await store.listEventCounts(SHOP, 0);
      const order = (a: { day: number; handle: string }, b: { day: number; handle: string }) =>
        a.day - b.day || a.handle.localeCompare(b.handle);
      expect(stored.sort(order)).toEqual(ROWS.map((r) => ({ ...r, views: r.views * SHOP })).sort(order));

      const since = 20261114;
      const expected = (shopId: number) =>
        ['a', 'b', 'c'].map((handle) => {
          const rows = ROWS.filter((r) => r.handle === handle && r.day >= since);
          const sum = (f: (r: (typeof ROWS)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
          return { handle, views: sum((r) => r.views * shopId), adds: sum((r) => r.adds) };
        });
      // In the handles' order: a load merges the sums without sorting them.
      expect(totalRows(await store.sumEventCounts(SHOP, since))).toEqual(expected(SHOP));
      expect(totalRows(await store.sumEventCounts(OTHER, since))).toEqual(expected(OTHER));

      // The intake adds to a day's stored row (its key still the conflict target) and starts new ones.
      const at = Date.UTC(2026, 10, 19, 12);
      const view = (handle: string) => storeEvent(SHOP, 'viewed', handle, at);
      await store.appendEvents([view('a'), view('a'), view('d')]);
      const day19 = (await store.listEventCounts(SHOP, 20261119)).sort(order);
      const a19 = ROWS.find((r) => r.day === 20261119 && r.handle === 'a');
      expect(day19.find((r) => r.handle === 'a')?.views).toBe((a19?.views ?? 0) * SHOP + 2);
      expect(day19.find((r) => r.handle === 'd')).toEqual({
        day: 20261119,
        handle: 'd',
        views: 1,
        adds: 0,
        removes: 0,
      });
    } finally {
      await store.close();
    }
    if (backend.name === 'sqlite') {
      // Keyed storage: the counts live in their key's tree, with no rowid table beside it.
      const after = connect(url);
      const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name = 'event_counts'`.execute(
        after.db,
      );
      await after.db.destroy();
      expect(rows[0]?.sql).toMatch(/without rowid$/i);
    }
  });
});
