import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { newShop, product, shopKeys, storeEvent } from '../helpers/fixtures.js';

/** The event intake's batch writes: any size, split into statements of a few fixed sizes. */
describe.each(backends())('event batches on $name', (backend) => {
  let store: Store;

  beforeEach(async () => {
    store = await openStore(await backend.url());
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  const shop = (handle: string) =>
    store.createShop(
      newShop(handle),
      shopKeys().map((k) => k.record),
    );

  it('stores every event of a batch of any size, numbered in order, with its counts', async () => {
    const a = await shop('a');
    const b = await shop('b');
    const day = Date.parse('2026-11-20T12:00:00Z');
    const verbs = ['viewed', 'added', 'removed'] as const;
    // 306 events over two shops, 255 (128+64+32+16+8+4+2+1) for the first: every statement size runs.
    const events = Array.from({ length: 306 }, (_, i) => ({
      shop_id: i % 6 === 5 ? b.id : a.id,
      uuid: `u${i % 7}`,
      customer_id: i % 3 === 0 ? i + 1 : null,
      subject: 'user' as const,
      verb: verbs[i % 3]!,
      noun: 'product' as const,
      handle: i % 10 === 9 ? null : `p-${i % 4}`,
      subject_email: i === 0 ? 'a@example.com' : null,
      theme_id: i === 1 ? 'theme-1' : null,
      created_at: day + i,
    }));
    await store.appendEvents(events);
    await store.appendEvents(events.slice(0, 3));
    const expected = [...events, ...events.slice(0, 3)];
    for (const s of [a, b]) {
      const mine = expected.filter((e) => e.shop_id === s.id);
      const stored = await store.listEvents(s.id, { limit: 1000 });
      expect(stored.map((e) => e.id)).toEqual(mine.map((_, i) => mine.length - i));
      expect(stored.reverse().map(({ id: _, ...e }) => e)).toEqual(mine);
      const counts = new Map<string, { views: number; adds: number; removes: number }>();
      for (const e of mine) {
        if (e.handle === null) continue;
        const c = counts.get(e.handle) ?? { views: 0, adds: 0, removes: 0 };
        if (e.verb === 'viewed') c.views++;
        else if (e.verb === 'added') c.adds++;
        else c.removes++;
        counts.set(e.handle, c);
      }
      const storedCounts = await store.listEventCounts(s.id, 20261101);
      expect(storedCounts.sort((p, q) => p.handle.localeCompare(q.handle))).toEqual(
        [...counts].sort(([p], [q]) => p.localeCompare(q)).map(([handle, c]) => ({ day: 20261120, handle, ...c })),
      );
    }
  });

  it('counts an unchecked handle only when the shop has the product; the events are kept either way', async () => {
    const a = await shop('checked');
    await store.upsertProducts(a.id, [product(1, { handle: 'known' })]);
    const at = Date.parse('2026-11-21T12:00:00Z');
    const view = (handle: string | null, marks: { unchecked?: boolean; uncounted?: boolean }) => ({
      ...storeEvent(a.id, 'viewed', handle, at),
      ...marks,
    });
    // The intake marks a handle it could not check (the shop was not loaded), or one its loaded catalog lacks.
    await store.appendEvents([
      view('known', { unchecked: true }),
      view('ghost', { unchecked: true }),
      view('known', {}),
      view('gone', { uncounted: true }),
      view(null, { unchecked: true }),
    ]);
    expect(await store.listEventCounts(a.id, 0)).toEqual([
      { day: 20261121, handle: 'known', views: 2, adds: 0, removes: 0 },
    ]);
    expect((await store.listEvents(a.id, { limit: 10 })).map((e) => e.handle)).toEqual([
      null,
      'gone',
      'known',
      'ghost',
      'known',
    ]);
  });
});
