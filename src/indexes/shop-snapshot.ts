import { deserialize, serialize } from 'node:v8';
import type { Market } from '../domain/catalog/market.js';
import type { IndexedCollection } from './collection-index.js';
import { CustomerIndex, type CustomerColumns } from './customer-index.js';
import { columnArrays, columnsBytes, joinArrays, joinColumns, joinEnds, ownedColumns } from './product-columns.js';
import { OwnedArrays } from './owned-arrays.js';
import { SERVING_VERSION, type PackedProducts } from './product-serving.js';
import type { SalesColumns } from './sales.js';
import type { Numbers } from './sold-products.js';

/**
 * What a shop's load reads from the store, before the read model is built of it: the parts a
 * load snapshot keeps (docs/scaling.md, "Load snapshots"). The shop's row, its rulesets, its
 * experiments and its event counts are read at every load (events move no version).
 */
export interface LoadParts {
  /** Every product of the shop, each from its current serving row. */
  readonly products: PackedProducts;
  /** The shop's collections as the read model keeps them. */
  readonly collections: readonly IndexedCollection[];
  readonly markets: Market[];
  readonly customers: CustomerIndex;
  /**
   * The sales figures' arrays, folded with the shop's trending settings (a change of settings moves
   * the shop's version, so a snapshot's are the version's) and without time (`timeBound` false).
   */
  readonly sales: SalesColumns;
}

/**
 * The snapshot's layout; a stored snapshot of another format, or of another serializer of the
 * products' bytes, is not read (the load reads the parts and writes a new one).
 */
const LAYOUT = 7;
export const SNAPSHOT_FORMAT = LAYOUT * 1000 + SERVING_VERSION;

/**
 * Lists of objects are kept as columns: V8 makes a deserialized object property by property, and
 * the objects it makes are slow to read (a shop's 300 customers took 0.25 ms to deserialize, and
 * as long again to index); typed arrays and strings are copied as they are. The customers are kept
 * as the index's own arrays and the collections as the read model's members, so a load makes no
 * object of either on its way (they were a fifth of what a load allocated). The sales figures are
 * kept as the arrays they are folded into, not as the order lines: a load does not fold them again.
 */
interface Columns {
  customers: CustomerColumns;
  collections: {
    ids: Float64Array;
    /** Each collection's title, then its handle. */
    text: string[];
    sizes: Uint32Array;
    /** Every collection's members, in its order, one collection after another. */
    members: Float64Array;
  };
}

function collectionColumns(collections: readonly IndexedCollection[]): Columns['collections'] {
  const out = {
    ids: new Float64Array(collections.length),
    text: collections.flatMap((c) => [c.title, c.handle]),
    sizes: new Uint32Array(collections.length),
    members: new Float64Array(collections.reduce((n, c) => n + c.members.length, 0)),
  };
  let at = 0;
  collections.forEach((collection, i) => {
    out.ids[i] = collection.id;
    out.sizes[i] = collection.members.length;
    out.members.set(collection.members, at);
    at += collection.members.length;
  });
  return out;
}

function collectionsOf(c: Columns['collections']): IndexedCollection[] {
  const collections = new Array<IndexedCollection>(c.ids.length);
  let at = 0;
  for (let i = 0; i < collections.length; i++) {
    const members = new Array<number>(c.sizes[i]!);
    for (let m = 0; m < members.length; m++, at++) members[m] = c.members[at]!;
    collections[i] = { id: c.ids[i]!, title: c.text[2 * i]!, handle: c.text[2 * i + 1]!, members };
  }
  return collections;
}

/**
 * At least the bytes `encodeSnapshot` makes of the parts, known before it makes them: every array
 * and string counted, strings at two bytes a character (V8 writes those outside Latin-1 so).
 */
export function snapshotBytes(parts: LoadParts): number {
  const text = (s: string | null) => 2 * (s?.length ?? 0);
  const arrays = (group: Record<string, Numbers>) => Object.values(group).reduce((n, a) => n + a.byteLength, 0);
  // The envelope: its keys, and the columns' headers.
  let bytes =
    2048 + parts.products.bytes.byteLength + columnsBytes(parts.products.fields) + 12 * parts.products.ids.length;
  for (const c of parts.collections) bytes += 16 + text(c.title) + text(c.handle) + 8 * c.members.length;
  const customers = parts.customers.columns();
  bytes += 13 * customers.ids.length + text(customers.emails);
  bytes += 8 * customers.tagged.length;
  for (const tags of customers.tagLists) bytes += 16 + tags.reduce((n, t) => n + 4 + text(t), 0);
  for (const m of parts.markets) {
    bytes += 200 + text(m.name) + 8 * m.countries.length + 9 * (m.product_ids?.length ?? 0);
    // An object a price: its keys are written with each.
    for (const f of m.fixed_prices) bytes += 80 + text(f.price) + text(f.compare_at_price);
  }
  const { sales } = parts;
  bytes += sales.ids.byteLength + sales.units90.byteLength + sales.units30.byteLength + sales.scores.byteLength;
  bytes += arrays({ ...sales.purchases }) + arrays({ ...sales.coPurchases });
  return bytes + 9 * (sales.topSellers.length + sales.trending.length);
}

/** One value of the parts, in V8's serialization (structured clone), lists of objects as columns. */
export function encodeSnapshot(parts: LoadParts): Uint8Array {
  const { ids, bytes, ends, fields, count, lastId } = parts.products;
  const columns: Columns = {
    customers: parts.customers.columns(),
    collections: collectionColumns(parts.collections),
  };
  const { sales } = parts;
  const stored: StoredLists = {
    sales: { ...sales, topSellers: Float64Array.from(sales.topSellers), trending: Float64Array.from(sales.trending) },
    markets: parts.markets.map((m) => ({ ...m, product_ids: m.product_ids && Float64Array.from(m.product_ids) })),
  };
  return serialize({ products: { ids, bytes, ends, fields, count, lastId }, ...stored, ...columns });
}

/**
 * Lists of ids as a snapshot keeps them: typed arrays. V8's deserializer makes every number past
 * 31 bits in a plain array a heap object of its own, and the read model kept them (365 a shop of
 * the multi-tenant benchmark, a sixth of what it kept: its two rankings and its markets' products).
 */
interface StoredLists {
  sales: Omit<SalesColumns, 'topSellers' | 'trending'> & { topSellers: Float64Array; trending: Float64Array };
  markets: (Omit<Market, 'product_ids'> & { product_ids: Float64Array | null })[];
}

/** Stored ids as the read model's list: filled from the typed array, V8 keeps the numbers unboxed in it. */
function idList(ids: Float64Array): number[] {
  const list = new Array<number>(ids.length);
  for (let i = 0; i < ids.length; i++) list[i] = ids[i]!;
  return list;
}

/**
 * The parts of a stored snapshot. V8 gives its typed arrays as views into `body`: those the read
 * model keeps are copied, or every resident shop would keep its whole snapshot, customers and all,
 * beyond what the memory budget counts. The products' bytes (most of it) get a buffer of their own;
 * the forty or so small arrays share one (`OwnedArrays`).
 */
export function decodeSnapshot(body: Uint8Array): LoadParts {
  const value = deserialize(body) as Columns & StoredLists & { products: Omit<PackedProducts, 'stale'> };
  const { sales, customers, products } = value;
  const kept = [
    products.ids,
    products.ends,
    ...columnArrays(products.fields),
    ...[customers.ids, customers.ends, customers.noEmail, customers.tagged, customers.tagListOf],
    ...[sales.ids, sales.units90, sales.units30, sales.scores],
    ...arraysOf(sales.purchases),
    ...arraysOf(sales.coPurchases),
  ];
  const owned = new OwnedArrays(kept);
  const copy = <T extends Numbers>(array: T) => owned.copy(array);
  return {
    products: {
      ...products,
      ids: copy(products.ids),
      bytes: products.bytes.slice(),
      ends: copy(products.ends),
      fields: ownedColumns(products.fields, copy),
      stale: [],
    },
    collections: collectionsOf(value.collections),
    markets: value.markets.map((m) => ({ ...m, product_ids: m.product_ids && idList(m.product_ids) })),
    customers: new CustomerIndex({
      ...customers,
      ids: copy(customers.ids),
      ends: copy(customers.ends),
      noEmail: copy(customers.noEmail),
      tagged: copy(customers.tagged),
      tagListOf: copy(customers.tagListOf),
    }),
    sales: {
      ...sales,
      ids: copy(sales.ids),
      units90: copy(sales.units90),
      units30: copy(sales.units30),
      scores: copy(sales.scores),
      topSellers: idList(sales.topSellers),
      trending: idList(sales.trending),
      purchases: ownedEach(sales.purchases, copy),
      coPurchases: ownedEach(sales.coPurchases, copy),
    },
  };
}

const arraysOf = <T extends { [K in keyof T]: Numbers }>(arrays: T): Numbers[] => Object.values<Numbers>(arrays);

/** Each typed array of the object copied out of the buffer it views. */
function ownedEach<T extends { [K in keyof T]: Numbers }>(arrays: T, copy: <A extends Numbers>(array: A) => A): T {
  return Object.fromEntries(Object.entries<Numbers>(arrays).map(([name, array]) => [name, copy(array)])) as T;
}

/** Pages read one after another as one page (a snapshot keeps the shop's products as one). */
export function joinPages(pages: readonly PackedProducts[]): PackedProducts {
  if (pages.length === 1) return pages[0]!;
  return {
    ids: joinArrays(
      Float64Array,
      pages.map((p) => p.ids),
    ),
    bytes: joinArrays(
      Uint8Array,
      pages.map((p) => p.bytes),
    ),
    // A page's last end is its bytes' length, so each page's ends move past the previous pages' bytes.
    ends: joinEnds(pages.map((p) => p.ends)),
    fields: joinColumns(pages.map((p) => p.fields)),
    stale: [],
    lastId: pages.at(-1)?.lastId ?? null,
    count: pages.reduce((n, p) => n + p.count, 0),
  };
}
