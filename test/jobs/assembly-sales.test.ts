import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CatalogLoader } from '../../src/indexes/catalog-loader.js';
import { DEFAULT_TRENDING } from '../../src/domain/ranking/trending.js';
import { buildSales, salesOf, type SalesFolder } from '../../src/indexes/sales.js';
import { AssemblyPool } from '../../src/jobs/assembly-pool.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { newShop, shopKeys } from '../helpers/fixtures.js';
import { plainSales, someOrders } from '../helpers/sold-orders.js';

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
