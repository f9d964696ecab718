/**
 * Bytes of one shop's read model by component: whole generations of the shops are loaded and
 * kept, then each part is let go in turn (in every shop) and the live memory (V8 heap and
 * buffers) it gives back, between full garbage collections, is its size. Letting go rather than
 * adding part by part keeps the store's caches and compiled code out of the figures. Needs
 * `--expose-gc`.
 *
 *   node --expose-gc --import tsx bench/lib/tenant-components.ts <sqlite file> <shop handle>...
 */
import { CatalogLoader } from '../../src/indexes/catalog-loader.js';
import type { ShopCatalog } from '../../src/indexes/shop-catalog.js';
import { openStore } from '../../src/store/open.js';
import { liveBytes } from './live-memory.js';

/**
 * Takes a field out of a loaded object (read-only to the code that serves it). A field read
 * through a getter (a product's, read from its page's columns) is left: what it is made from goes
 * with the object itself.
 */
function drop(target: object, field: string): void {
  if (Object.hasOwn(target, field)) (target as Record<string, unknown>)[field] = null;
}

/** The parts in the order they are let go; each drops what the ones before it left of that part. */
const PARTS: [string, (catalog: ShopCatalog) => void][] = [
  ['sales', (c) => drop(c, 'sales')],
  ['customers', (c) => drop(c, 'customers')],
  [
    'collections',
    (c) => {
      drop(c, 'collections');
      drop(c, 'members');
      drop(c, 'productCollections');
    },
  ],
  [
    'lookups',
    (c) => {
      drop(c, 'handles');
      drop(c, 'tagged');
    },
  ],
  ['products', (c) => drop(c, 'products')],
  ['eventCounts', (c) => drop(c, 'eventCountsOnDemand')],
  ['markets', (c) => drop(c, 'markets')],
  ['rulesets', (c) => drop(c, 'rulesets')],
];

function sumOf<T>(items: Iterable<T>, value: (item: T) => number): number {
  let sum = 0;
  for (const item of items) sum += value(item);
  return sum;
}

/** Lets each part go in turn; the generations themselves (the rest) are let go by the caller. */
async function letGoParts(catalogs: readonly ShopCatalog[], shops: number): Promise<Record<string, number>> {
  const perShop: Record<string, number> = {};
  let before = await liveBytes();
  for (const [part, letGo] of PARTS) {
    for (const catalog of catalogs) letGo(catalog);
    const after = await liveBytes();
    perShop[part] = Math.round((before - after) / shops);
    before = after;
  }
  return perShop;
}

async function main(): Promise<void> {
  const [file, ...handles] = process.argv.slice(2);
  if (!file || handles.length === 0) throw new Error('usage: … <sqlite file> <shop handle>...');
  const store = await openStore(`sqlite:${file}`, { migrate: false });
  const loader = new CatalogLoader(store);
  // A load of another shop first: compiled code and the store's statements are not a shop's bytes.
  await loader.full((await store.getShopByHandle(handles[handles.length - 1]!))!.id);
  const held: { catalogs: ShopCatalog[] } = { catalogs: [] };
  const empty = await liveBytes();
  for (const handle of handles) {
    const shop = await store.getShopByHandle(handle);
    if (!shop) throw new Error(`no shop ${handle}`);
    const catalog = (await loader.full(shop.id))!;
    // The lookups made on first use, as a shop that served a few kinds of answers holds them, and
    // its event counts, as one that served smart sort does.
    void [catalog.byHandle, catalog.byTag, catalog.collectionsByProduct];
    await catalog.eventCountsOnDemand.get();
    held.catalogs.push(catalog);
  }
  await loader.copiesWritten();
  const products = held.catalogs.reduce((n, c) => n + c.products.size, 0);
  const loaded = (await liveBytes()) - empty;
  // A product's fields, variants and answer bytes are its page's columns, let go with the products; the
  // answer bytes (typed arrays, exactly their length) are told apart by their length.
  const answerBytes = held.catalogs.reduce((n, c) => n + sumOf(c.products.values(), (p) => p.storedLength), 0);
  const perShop = await letGoParts(held.catalogs, handles.length);
  perShop.answerBytes = Math.round(answerBytes / handles.length);
  perShop.products! -= perShop.answerBytes;
  held.catalogs = [];
  // What the parts above leave (the shop's row, its experiments, the generation's own maps): the load's
  // bytes less theirs.
  perShop.rest = Math.round(loaded / handles.length - Object.values(perShop).reduce((a, b) => a + b, 0));
  await store.close();
  const perProduct = Object.fromEntries(
    Object.entries(perShop).map(([k, v]) => [k, Math.round((v * handles.length) / products)]),
  );
  const total = Math.round(Object.values(perShop).reduce((a, b) => a + b, 0) * (handles.length / products));
  console.log(
    JSON.stringify({ shops: handles.length, products, perShop, perProductByPart: perProduct, perProduct: total }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
