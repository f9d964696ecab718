/**
 * Bytes of one shop's read model by component: each part is read alone, between full garbage
 * collections, and the live memory (V8 heap and buffers) it adds is its size. Needs `--expose-gc`.
 *
 *   node --expose-gc --import tsx bench/lib/tenant-components.ts <sqlite file> <shop handle>...
 */
import { CatalogLoader } from '../../src/indexes/catalog-loader.js';
import { openStore } from '../../src/store/open.js';

const gc = (globalThis as { gc?: () => void }).gc;

function live(): number {
  gc!();
  gc!();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

async function main(): Promise<void> {
  const [file, ...handles] = process.argv.slice(2);
  if (!gc || !file || handles.length === 0) throw new Error('usage: … <sqlite file> <shop handle>...');
  const store = await openStore(`sqlite:${file}`, { migrate: false });
  const loader = new CatalogLoader(store);
  const parts = ['products', 'collections', 'markets', 'customers', 'rulesets', 'sales', 'eventCounts'] as const;
  const totals: Record<string, number> = {};
  let products = 0;
  const keep: unknown[] = [];
  for (const handle of handles) {
    const shop = await store.getShopByHandle(handle);
    if (!shop) throw new Error(`no shop ${handle}`);
    for (const part of parts) {
      const before = live();
      const value = await loader[part](shop.id);
      keep.push(value);
      totals[part] = (totals[part] ?? 0) + live() - before;
      if (part === 'products') products += (value as Map<number, unknown>).size;
    }
  }
  await store.close();
  const perShop = Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, Math.round(v / handles.length)]));
  const perProduct = Math.round(Object.values(totals).reduce((a, b) => a + b, 0) / products);
  console.log(JSON.stringify({ shops: handles.length, products, perShop, perProduct, kept: keep.length }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
