import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CatalogLoader } from '../../src/indexes/catalog-loader.js';
import { DEFAULT_TRENDING } from '../../src/domain/ranking/trending.js';
import { buildSales, salesOf, type SalesFolder } from '../../src/indexes/sales.js';
import { AssemblyPool } from '../../src/jobs/assembly-pool.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { newShop, shopKeys } from '../helpers/fixtures.js';
import { DAY, NOW, plainSales, someOrders } from '../helpers/sold-orders.js';

const customers = Array.from({ length: 24 }, (_, i) => i);
const products = Array.from({ length: 18 }, (_, i) => i);

/** A patch's sales figures folded in the assembly thread are the figures folded here (docs/scaling.md). */
describe.each(backends())('sales figures folded in the assembly thread on $name', (backend) => {
  let store: Store;
  let url: string;
  let shopId: number;

  beforeEach(async () => {
    url = await backend.url();
    store = await backend.open();
    shopId = (
      await store.createShop(
        newShop('fold'),
        shopKeys().map((k) => k.record),
      )
    ).id;
    await store.upsertOrders(shopId, someOrders(300));
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  const here = () => new CatalogLoader(store).sales(shopId);
  const through = (folder: SalesFolder) =>
    new CatalogLoader(store, undefined, undefined, undefined, folder).sales(shopId);

  it('answers what this thread folds, the thread asked once it is ready', async () => {
    const pool = new AssemblyPool(url);
    try {
      const asked: number[] = [];
      const folder: SalesFolder = (id, fold) => {
        const folding = pool.foldSales(id, fold);
        if (folding) asked.push(id);
        return folding;
      };
      // Not started yet: folded here, and the thread started for the next patch.
      expect(plainSales(await through(folder), customers, products)).toEqual(
        plainSales(await here(), customers, products),
      );
      expect(asked).toEqual([]);
      await pool.warm();
      const folded = await through(folder);
      expect(asked).toEqual([shopId]);
      expect(folded.topSellers.length).toBeGreaterThan(10);
      expect(plainSales(folded, customers, products)).toEqual(plainSales(await here(), customers, products));
      expect(folded.bytes).toBe((await here()).bytes);
      // The thread's own answer, not a fold here after the thread failed.
      const fold = { now: Date.now(), settings: DEFAULT_TRENDING };
      const columns = await pool.foldSales(shopId, fold);
      expect(columns?.ids).toBeInstanceOf(Float64Array);
      expect(plainSales(salesOf(columns!, fold.now), customers, products)).toEqual(
        plainSales(buildSales(await store.listSoldLines(shopId), fold.now, DEFAULT_TRENDING), customers, products),
      );
    } finally {
      await pool.close();
    }
  });

  it('folds here when the thread fails', async () => {
    const failing: SalesFolder = () => Promise.reject(new Error('the thread ran out of memory'));
    expect(plainSales(await through(failing), customers, products)).toEqual(
      plainSales(await here(), customers, products),
    );
  });
});

/**
 * A shop with more sold lines than the thread's heap holds is folded in a thread with a larger one, not
 * on the request thread. The retry is the pool's whatever the store, so one store shows it: SQLite,
 * where 150,000 lines are written in a moment.
 */
describe('sales figures too large for the assembly thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rebound-fold-'));
  const url = `sqlite:${join(dir, 'fold.db')}`;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are folded once in a thread with a larger heap, as this thread folds them', async () => {
    const store = await openStore(url);
    const database = new SQLite(join(dir, 'fold.db'));
    try {
      const insert = database.prepare(
        'insert into order_lines (shop_id, order_id, line_no, product_id, variant_id, quantity, price, ' +
          'customer_id, created_at, cancelled) values (1, ?, ?, ?, null, 1, 1.0, ?, ?, 0)',
      );
      database.transaction(() => {
        for (let order = 1; order <= 50_000; order++)
          for (let line = 0; line < 3; line++)
            insert.run(order, line, 1 + ((order * 7 + line * 13) % 3000), order % 7000, NOW - (order % 90) * DAY);
      })();
      const fold = { now: NOW, settings: DEFAULT_TRENDING };
      const small = { threadMb: 12, largeMb: 12 };
      const alone = new AssemblyPool(url, small);
      await alone.warm();
      await expect(alone.foldSales(1, fold)).rejects.toMatchObject({ code: 'ERR_WORKER_OUT_OF_MEMORY' });
      await alone.close();

      const pool = new AssemblyPool(url, { ...small, largeMb: 128 });
      try {
        await pool.warm();
        const columns = await pool.foldSales(1, fold);
        const here = buildSales(await store.listSoldLines(1), fold.now, DEFAULT_TRENDING);
        const every = Array.from({ length: 3000 }, (_, i) => i + 1);
        expect(plainSales(salesOf(columns!, fold.now), [1, 2, 3], every)).toEqual(plainSales(here, [1, 2, 3], every));
      } finally {
        await pool.close();
      }
    } finally {
      database.close();
      await store.close();
    }
  });
});
