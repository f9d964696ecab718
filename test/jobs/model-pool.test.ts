import { afterAll, describe, expect, it } from 'vitest';
import { ModelPool, SMALL_SHOP_BYTES } from '../../src/jobs/model-pool.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { newShop, product, shopKeys } from '../helpers/fixtures.js';

/**
 * The model threads (src/jobs/model-pool.ts): a small shop's work runs in a second thread while the
 * shared one is busy, so a large shop's build does not hold it, and in the shared one otherwise, so
 * a node of small shops keeps one thread. Shown by the order the two finish in, not by time.
 */
describe.each(backends())('the model threads on $name', (backend) => {
  afterAll(() => backend.cleanup());

  async function shopWith(store: Store, handle: string, n: number): Promise<number> {
    const shop = await store.createShop(
      newShop(handle),
      shopKeys().map((k) => k.record),
    );
    await store.upsertProducts(
      shop.id,
      Array.from({ length: n }, (_, i) => product(i + 1)),
    );
    return shop.id;
  }

  it("answers a small shop's content neighbours while a large shop's are built", async () => {
    const url = await backend.url();
    const store = await backend.open();
    const large = await shopWith(store, 'large', 4_000);
    const small = await shopWith(store, 'small', 3);
    await store.close();
    const sizes = new Map([
      [large, SMALL_SHOP_BYTES + 1],
      [small, 50_000],
    ]);
    const pool = new ModelPool(url, { shopBytes: (shopId) => sizes.get(shopId) });
    try {
      // Nothing in flight: every shop's work would run in the shared thread.
      expect([pool.laneOf(large), pool.laneOf(small), pool.laneOf(999)]).toEqual(['shared', 'shared', 'shared']);
      // Both threads started first: the race below is between the two tasks, not the threads' start.
      await Promise.all([pool.ping('shared'), pool.ping('small')]);
      const finished: string[] = [];
      // Every product shares its vendor, type and tags: each scores the 2,000 candidates of its budget.
      const largeContent = pool.content(large).then((content) => {
        finished.push('large');
        return content;
      });
      // The shared thread busy: a small shop's work goes to the second thread, a large or unknown shop's waits.
      expect([pool.laneOf(large), pool.laneOf(small), pool.laneOf(999)]).toEqual(['shared', 'small', 'shared']);
      const smallContent = pool.content(small).then((content) => {
        finished.push('small');
        return content;
      });
      const [l, s] = await Promise.all([largeContent, smallContent]);
      expect(l?.ids.length).toBe(4_000);
      expect(s?.ids.length).toBe(3);
      // In one thread for all, the small shop's waited for the large shop's.
      expect(finished).toEqual(['small', 'large']);
      expect(pool.laneOf(small)).toBe('shared');
    } finally {
      await pool.close();
    }
  });
});
