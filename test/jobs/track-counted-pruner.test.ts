import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { TrackCountedPruner } from '../../src/jobs/track-counted-pruner.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { newShop, shopKeys, trackedClick } from '../helpers/fixtures.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-25T12:00:00Z');

describe.each(backends())('pruning the once-per-day tracking records on $name', (backend) => {
  let store: Store;

  beforeEach(async () => {
    store = await openStore(await backend.url());
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  const click = (shopId: number, at: number) => trackedClick(shopId, at);
  const clicksOn = async (shopId: number, at: number) => {
    const day = Number(new Date(at).toISOString().slice(0, 10).replace(/-/g, ''));
    return (await store.sourceDays(shopId, 20260101)).find((d) => d.day === day)?.clicks ?? 0;
  };

  it('deletes the records of days before yesterday, once a day, and keeps the recent ones counting once', async () => {
    const shop = await store.createShop(
      newShop('pruned'),
      shopKeys().map((k) => k.record),
    );
    const old = NOW - 3 * DAY;
    const yesterday = NOW - DAY;
    for (const at of [old, yesterday, NOW]) await store.appendTrackEvents([click(shop.id, at)]);
    let deletes = 0;
    const pruner = new TrackCountedPruner((day) => {
      deletes++;
      return store.forgetCountedBefore(day);
    });
    expect(await pruner.run(NOW)).toBe(1);
    expect(await pruner.run(NOW + 60_000)).toBe(0);
    expect(deletes).toBe(1);
    // The old day's record is gone (a repeat stamped that day would count again); the recent ones still hold.
    for (const at of [old, yesterday, NOW]) await store.appendTrackEvents([click(shop.id, at)]);
    expect(await clicksOn(shop.id, old)).toBe(2);
    expect(await clicksOn(shop.id, yesterday)).toBe(1);
    expect(await clicksOn(shop.id, NOW)).toBe(1);
    // The next day prunes again.
    expect(await pruner.run(NOW + DAY)).toBe(1);
    expect(deletes).toBe(2);
  });
});
