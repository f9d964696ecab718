import { CustomerIndex } from './customer-index.js';
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
const CUSTOMER = 160;
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

function productBytes(product: IndexedProduct): number {
  const bytes = PRODUCT_OBJECT + product.storedLength + product.variantCount * VARIANT;
  return bytes + text(product.handle) + text(product.title);
}

/**
 * Vendors, product types and tags, held once by a page of products whatever the number of its
 * products that share them (loaded-product.ts): the strings of the page's columns, each tag a
 * string of its own (the snapshot's deserializer makes each anew). The lists of tags and their
 * lower-cased copies are made on first read, with the other memos.
 */
export function pageTextBytes(kinds: readonly string[], tags: readonly string[]): number {
  let bytes = 8 * tags.length;
  for (const kind of kinds) bytes += text(kind);
  for (const tag of tags) bytes += text(tag);
  return bytes;
}

/** The pages' text of the products, each page counted once (a patched generation's products span several). */
function sharedTextBytes(products: Iterable<IndexedProduct>): number {
  const pages = new Set<SharedText>();
  for (const product of products) pages.add(product.sharedText);
  let bytes = 0;
  for (const page of pages) bytes += page.bytes;
  return bytes;
}

/** An estimate of the heap one generation of a shop's read model holds, memos included. */
export function estimateCatalogBytes(catalog: ShopCatalog): number {
  let bytes = GENERATION;
  for (const product of catalog.products.values()) bytes += productBytes(product) + MAP_ENTRY * 2;
  bytes += sharedTextBytes(catalog.products.values());
  for (const collection of catalog.collections.values())
    bytes += 200 + text(collection.title) + collection.members.length * COLLECTION_MEMBER;
  if (catalog.customers instanceof CustomerIndex) bytes += catalog.customers.bytes;
  else
    for (const customer of catalog.customers.values())
      bytes += CUSTOMER + text(customer.email) + customer.tags.reduce((n, t) => n + text(t), 0);
  for (const ruleset of catalog.rulesets.values())
    bytes += 4 * ruleset.ruleJson.reduce((n, r) => n + r.length, 0) + 2_000;
  bytes += SALES + catalog.sales.bytes;
  bytes += EVENT_COUNT * catalog.eventCounts.size;
  return Math.round(bytes * (1 + MEMO_SHARE));
}
