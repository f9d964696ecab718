import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AssemblyPool } from '../../src/jobs/assembly-pool.js';
import { openStore } from '../../src/store/open.js';
import { newShop, product, shopKeys } from '../helpers/fixtures.js';

/**
 * A page of products larger than the assembly thread's heap (products at the platform's bounds: 250
 * tags of many characters each) is read once in the thread with the larger heap. The shop's load had
 * failed, and every request of the shop with it, with a 500. The retry is the pool's whatever the
 * store, so one store shows it: SQLite.
 */
describe('a page of products too large for the assembly thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rebound-pages-'));
  const url = `sqlite:${join(dir, 'pages.db')}`;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is read in a thread with a larger heap, as the small thread reads a page that fits', async () => {
    const store = await openStore(url);
    try {
      const shopId = (
        await store.createShop(
          newShop('tagged'),
          shopKeys().map((k) => k.record),
        )
      ).id;
      const tags = (id: number) => Array.from({ length: 250 }, (_, t) => `${id}-${t}-${'x'.repeat(100)}`);
      for (let at = 1; at <= 1000; at += 100)
        await store.upsertProducts(
          shopId,
          Array.from({ length: 100 }, (_, i) => product(at + i, { tags: tags(at + i).join(', ') })),
        );
      const page = { afterId: 0, limit: 1000, maxBytes: 2 ** 30 };
      const small = { threadMb: 16, largeMb: 16 };
      const alone = new AssemblyPool(url, small);
      await alone.warm();
      await expect(alone.readPage(shopId, page)).rejects.toMatchObject({ code: 'ERR_WORKER_OUT_OF_MEMORY' });
      await alone.close();

      const pool = new AssemblyPool(url, { ...small, largeMb: 256 });
      try {
        await pool.warm();
        const read = await pool.readPage(shopId, page);
        expect(read!.count).toBe(1000);
        expect(read!.lastId).toBe(1000);
        // A page of the first ten products fits the small thread (started again after its failure).
        await pool.warm();
        const first = await pool.readPage(shopId, { afterId: 0, limit: 10, maxBytes: 2 ** 30 });
        expect(first!.count).toBe(10);
      } finally {
        await pool.close();
      }
    } finally {
      await store.close();
    }
  }, 120_000);
});
