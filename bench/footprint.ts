/**
 * How well the memory budget's estimate tracks reality: loads shops one at a time into a catalog
 * index, collecting garbage before and after each, and compares the live memory each added (V8
 * heap plus buffers) with the index's estimate. Needs `--expose-gc`; `npm run bench:tenants`
 * runs it on the prepared database. Prints one JSON line.
 *
 *   node --expose-gc --import tsx bench/footprint.ts <sqlite file> <shop handle>...
 */
import { CatalogIndex } from '../src/indexes/catalog-index.js';
import { openStore } from '../src/store/open.js';
import { liveBytes } from './lib/live-memory.js';

async function main(): Promise<void> {
  const [file, ...handles] = process.argv.slice(2);
  if (!file || handles.length === 0)
    throw new Error('usage: node --expose-gc --import tsx bench/footprint.ts <sqlite file> <shop handle>...');
  const store = await openStore(`sqlite:${file}`);
  const index = new CatalogIndex(store);
  const rows: { handle: string; products: number; estimated: number; measured: number; loadMs: number }[] = [];
  for (const handle of handles) {
    const shop = await store.getShopByHandle(handle);
    if (!shop) throw new Error(`no shop ${handle} in ${file}`);
    const before = await liveBytes();
    const started = performance.now();
    const catalog = await index.ensure(shop.id);
    const loadMs = performance.now() - started;
    rows.push({
      handle,
      products: catalog!.products.size,
      estimated: index.bytes(shop.id),
      measured: (await liveBytes()) - before,
      loadMs: Math.round(loadMs),
    });
  }
  await store.close();
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((total, r) => total + f(r), 0);
  console.log(
    JSON.stringify({
      shops: rows,
      estimated: sum((r) => r.estimated),
      measured: sum((r) => r.measured),
      ratio: Number((sum((r) => r.measured) / sum((r) => r.estimated)).toFixed(2)),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
