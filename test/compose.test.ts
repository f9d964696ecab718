import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { compose } from '../src/compose.js';
import { AssemblyPool } from '../src/jobs/assembly-pool.js';
import { productInput } from './helpers/fixtures.js';

/** The assembly thread is given to a node whose budget can spare its isolate, and only used past 1,250 products. */
describe('the assembly thread and the memory budget', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rebound-compose-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    [160, 0],
    [512, 1],
  ])('at a %i MB budget, a 1,600-product shop asks the thread for %i page(s)', async (budget, pages) => {
    // Watched from before the composition, which binds the pool's method.
    const asked = vi.spyOn(AssemblyPool.prototype, 'readPage');
    const services = await compose(
      loadConfig({
        DATABASE_URL: `sqlite:${join(dir, `budget-${budget}.db`)}`,
        LOG_LEVEL: 'silent',
        REBOUND_DEMO: 'false',
        REBOUND_MEMORY_BUDGET_MB: String(budget),
        REBOUND_MODEL_INTERVAL_S: '86400',
      }),
    );
    try {
      const { shop } = await services.shops.createShop({ handle: 'large', name: 'large' });
      for (let first = 1; first <= 1600; first += 400)
        await services.catalog.upsertProducts(
          shop.id,
          Array.from({ length: 400 }, (_, i) => productInput(first + i)),
        );
      services.catalogIndex.evict(shop.id);
      asked.mockClear();
      await services.catalogIndex.ensure(shop.id);
      expect(services.catalogIndex.get(shop.id)?.products.size).toBe(1600);
      expect(asked).toHaveBeenCalledTimes(pages);
    } finally {
      await services.close();
    }
  });
});
