/**
 * `npm run bench:cold`: a shop's products loaded into the read model, 1,000 and 10,000 of them, the
 * previous way (each stored document parsed and its answer serialized, 25 products a turn) next to
 * loads from the stored serving rows (§23), read on the request thread and read in the assembly
 * thread, in one process and one run. Reports the median of five
 * loads each and how long the event loop was busy with it (what other shops' requests wait behind).
 * The last line printed is one JSON object with every figure.
 *
 * Settings: COLD_SIZES (1000,10000), COLD_REPEATS (5).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoShop } from '../demo/generate.js';
import { normalizeProduct } from '../src/domain/catalog/normalize.js';
import { CatalogLoader } from '../src/indexes/catalog-loader.js';
import { indexProduct } from '../src/indexes/product-serving.js';
import type { IndexedProduct } from '../src/indexes/shop-catalog.js';
import { AssemblyPool } from '../src/jobs/assembly-pool.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { newApiKey } from '../src/domain/keys.js';

const SIZES = (process.env.COLD_SIZES ?? '1000,10000').split(',').map(Number);
const REPEATS = Number(process.env.COLD_REPEATS ?? 5);

/** The loader before stored rows: documents 25 at a time, parsed and serialized, a turn between pages. */
async function fromDocuments(store: Store, shopId: number): Promise<Map<number, IndexedProduct>> {
  const products = new Map<number, IndexedProduct>();
  let afterId = 0;
  for (;;) {
    const page = await store.listProducts(shopId, { afterId, limit: 25 });
    for (const row of page) products.set(row.id, indexProduct(row));
    if (page.length < 25) return products;
    afterId = page[page.length - 1]!.id;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

const median = (values: number[]) =>
  Number([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!.toFixed(1));

/**
 * Median wall time of `repeats` loads, and the median time the event loop was busy during one
 * (what the load takes from every other shop's requests; a thread's reading is not counted).
 */
async function timeLoads(load: () => Promise<Map<number, IndexedProduct>>, size: number) {
  const times: number[] = [];
  const busy: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const before = performance.eventLoopUtilization();
    const started = performance.now();
    const products = await load();
    times.push(performance.now() - started);
    busy.push(performance.eventLoopUtilization(before).active);
    if (products.size !== size) throw new Error(`loaded ${products.size} of ${size}`);
  }
  return { medianMs: median(times), loopBusyMs: median(busy) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rebound-cold-'));
  const url = `sqlite:${join(dir, 'cold.db')}`;
  const store = await openStore(url);
  const pool = new AssemblyPool(url);
  const results: Record<string, unknown>[] = [];
  try {
    for (const size of SIZES) {
      const shop = await store.createShop(
        {
          handle: `cold-${size}`,
          name: 'cold',
          timezone: 'UTC',
          currency: 'USD',
          scopes: [],
          signing_secret: 's',
          public_url: null,
          webhook_secret: null,
          billing_webhook_secret: null,
          settings: {},
        },
        [newApiKey(0, 'public').record],
      );
      const now = new Date();
      const products = generateDemoShop({ seed: 7, productCount: size }).products.map((p) => normalizeProduct(p, now));
      for (let i = 0; i < products.length; i += 500) await store.upsertProducts(shop.id, products.slice(i, i + 500));
      const previous = await timeLoads(() => fromDocuments(store, shop.id), size);
      const stored = await timeLoads(() => new CatalogLoader(store).products(shop.id), size);
      await pool.warm(); // the thread's start-up is not the load's (a load does not wait for it)
      const threaded = await timeLoads(
        () => new CatalogLoader(store, undefined, (id, page) => pool.readPage(id, page)).products(shop.id),
        size,
      );
      const row = {
        products: size,
        documents: previous,
        stored,
        threaded,
        speedup: Number((previous.medianMs / threaded.medianMs).toFixed(1)),
      };
      console.log(JSON.stringify(row));
      results.push(row);
    }
  } finally {
    await pool.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ loadavg: loadavg().map((l) => Number(l.toFixed(1))), cores: 2, results }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
