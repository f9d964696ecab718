import type { ProductColumns } from './product-columns.js';
import type { IndexedProduct, SharedText, ShopCatalog } from './shop-catalog.js';

/**
 * Bytes of one entry of each structure, as V8 lays them out on 64-bit (object header, fields,
 * a Map entry's share of its hash table). Measured, not exact: `npm run bench:tenants` prints
 * the estimate next to the heap it stands for, and docs/scaling.md records how close it is.
 */
/**
 * A product's object and its slots in its page's columns (id, four strings' places, tags, stock),
 * and its answer object once one is read: the fields and answer object every product kept were 200.
 */
const PRODUCT_OBJECT = 100;
const VARIANT = 24;
const MAP_ENTRY = 40;
const COLLECTION_MEMBER = 36;
/** The sales figures' objects and a dozen typed arrays' headers, around the bytes of their arrays. */
const SALES = 3_000;
/** A handle's string, its place in the sorted list and its two counts in the typed array (77-82 measured). */
const EVENT_COUNT = 80;
/** Everything a generation has whatever its size: maps, the shop row, market lists. */
const GENERATION = 16_000;
/** Memos built on first use (search index, content profiles, market prices) grow a generation afterwards. */
const MEMO_SHARE = 0.35;

/** Strings are counted at one byte a character (V8 keeps Latin-1 text that way) plus a header. */
const text = (s: string | null) => (s === null ? 0 : s.length + 24);

/** A product's own bytes; its handle and title are counted with its page's text. */
const productBytes = (product: IndexedProduct) =>
  PRODUCT_OBJECT + product.storedLength + product.variantCount * VARIANT;

/**
 * The text of a page of products (loaded-product.ts): its products' handles and titles as UTF-8,
 * and its vendors, product types and tags, each held once whatever the number of its products that
 * share them, a list's tags as their places in that table. The strings of handles and titles, the
 * lists and their lower-cased copies are made on first read, with the other memos.
 */
export function pageTextBytes(c: Pick<ProductColumns, 'kinds' | 'tagKinds' | 'text' | 'textEnds'>): number {
  let bytes = c.text.byteLength + c.textEnds.byteLength + c.tagKinds.byteLength;
  for (const kind of c.kinds) bytes += text(kind);
  return bytes;
}

/** An estimate of the heap one generation of a shop's read model holds, memos included. */
export function estimateCatalogBytes(catalog: ShopCatalog): number {
  let bytes = GENERATION;
  // A product and its lookups' entry (its products are found in their page's ids, not a map), and each
  // page's text once: a patched generation's products span several pages.
  const pages = new Set<SharedText>();
  for (const product of catalog.products.values()) {
    bytes += productBytes(product) + MAP_ENTRY;
    pages.add(product.sharedText);
  }
  for (const page of pages) bytes += page.bytes;
  for (const collection of catalog.collections.values())
    bytes += 200 + text(collection.title) + collection.members.length * COLLECTION_MEMBER;
  bytes += catalog.customers.bytes;
  for (const ruleset of catalog.rulesets.values())
    bytes += 4 * ruleset.ruleJson.reduce((n, r) => n + r.length, 0) + 2_000;
  bytes += SALES + catalog.sales.bytes;
  bytes += EVENT_COUNT * (catalog.eventCountsOnDemand.now?.size ?? 0);
  return Math.round(bytes * (1 + MEMO_SHARE));
}
