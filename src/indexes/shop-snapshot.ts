import { deserialize, serialize } from 'node:v8';
import type { Collection, Customer } from '../domain/catalog/collection.js';
import type { Market } from '../domain/catalog/market.js';
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
  readonly collections: Collection[];
  readonly markets: Market[];
  readonly customers: Customer[];
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
const LAYOUT = 2;
export const SNAPSHOT_FORMAT = LAYOUT * 1000 + SERVING_VERSION;

/**
 * Lists of objects are kept as columns: V8 makes a deserialized object property by property, and
 * the objects it makes are slow to read (a shop's 300 customers took 0.25 ms to deserialize, and
 * as long again to index); typed arrays and strings are copied as they are. The sales figures are
 * kept as the arrays they are folded into, not as the order lines: a load does not fold them again.
 */
interface Columns {
  customers: { ids: Float64Array; emails: string[]; hasEmail: Uint8Array; tags: string };
  collections: {
    ids: Float64Array;
    text: string[];
    sizes: Uint32Array;
    members: Float64Array;
    positions: Float64Array;
  };
}

function customerColumns(customers: readonly Customer[]): Columns['customers'] {
  const ids = new Float64Array(customers.length);
  const hasEmail = new Uint8Array(customers.length);
  const emails: string[] = [];
  const tags: [number, string[]][] = [];
  customers.forEach((customer, i) => {
    ids[i] = customer.id;
    if (customer.email !== null) {
      hasEmail[i] = 1;
      emails.push(customer.email);
    }
    if (customer.tags.length > 0) tags.push([i, customer.tags]);
  });
  return { ids, emails, hasEmail, tags: JSON.stringify(tags) };
}

function customersOf(c: Columns['customers']): Customer[] {
  const customers = new Array<Customer>(c.ids.length);
  let email = 0;
  for (let i = 0; i < customers.length; i++)
    customers[i] = { id: c.ids[i]!, email: c.hasEmail[i] ? c.emails[email++]! : null, tags: [] };
  for (const [i, tags] of JSON.parse(c.tags) as [number, string[]][]) customers[i]!.tags = tags;
  return customers;
}

function collectionColumns(collections: readonly Collection[]): Columns['collections'] {
  const members = collections.reduce((n, c) => n + c.products.length, 0);
  const out = {
    ids: new Float64Array(collections.length),
    text: collections.flatMap((c) => [c.title, c.handle, c.updated_at]),
    sizes: new Uint32Array(collections.length),
    members: new Float64Array(members),
    positions: new Float64Array(members),
  };
  let at = 0;
  collections.forEach((collection, i) => {
    out.ids[i] = collection.id;
    out.sizes[i] = collection.products.length;
    for (const member of collection.products) {
      out.members[at] = member.product_id;
      out.positions[at++] = member.position;
    }
  });
  return out;
}

function collectionsOf(c: Columns['collections']): Collection[] {
  const collections = new Array<Collection>(c.ids.length);
  let at = 0;
  for (let i = 0; i < collections.length; i++) {
    const products = new Array<Collection['products'][number]>(c.sizes[i]!);
    for (let m = 0; m < products.length; m++, at++)
      products[m] = { product_id: c.members[at]!, position: c.positions[at]! };
    const [title, handle, updated_at] = [c.text[3 * i]!, c.text[3 * i + 1]!, c.text[3 * i + 2]!];
    collections[i] = { id: c.ids[i]!, title, handle, updated_at, products };
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
  let bytes = 2048 + parts.products.bytes.byteLength + text(parts.products.fields) + 12 * parts.products.ids.length;
  for (const c of parts.collections)
    bytes += 16 + text(c.title) + text(c.handle) + text(c.updated_at) + 16 * c.products.length;
  for (const c of parts.customers) bytes += 12 + text(c.email) + c.tags.reduce((n, t) => n + 4 + text(t), 0);
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
    customers: customerColumns(parts.customers),
    collections: collectionColumns(parts.collections),
  };
  const { markets, sales } = parts;
  return serialize({ products: { ids, bytes, ends, fields, count, lastId }, markets, sales, ...columns });
}

/**
 * The parts of a stored snapshot. V8 gives its typed arrays as views into `body`: those the read
 * model keeps (the products' bytes, the sales figures) are copied, or every resident shop would
 * keep its whole snapshot, customers and all, beyond what the memory budget counts.
 */
export function decodeSnapshot(body: Uint8Array): LoadParts {
  const value = deserialize(body) as Columns & {
    products: Omit<PackedProducts, 'stale'>;
    markets: Market[];
    sales: SalesColumns;
  };
  const { sales } = value;
  return {
    products: { ...value.products, bytes: value.products.bytes.slice(), stale: [] },
    collections: collectionsOf(value.collections),
    markets: value.markets,
    customers: customersOf(value.customers),
    sales: {
      ...sales,
      ids: sales.ids.slice(),
      units90: sales.units90.slice(),
      units30: sales.units30.slice(),
      scores: sales.scores.slice(),
      purchases: owned(sales.purchases),
      coPurchases: owned(sales.coPurchases),
    },
  };
}

/** Each typed array of the object copied out of the buffer it views. */
function owned<T extends { [K in keyof T]: Numbers }>(arrays: T): T {
  return Object.fromEntries(Object.entries<Numbers>(arrays).map(([name, array]) => [name, array.slice()])) as T;
}

/** Pages read one after another as one page (a snapshot keeps the shop's products as one). */
export function joinPages(pages: readonly PackedProducts[]): PackedProducts {
  if (pages.length === 1) return pages[0]!;
  const ids = new Float64Array(pages.reduce((n, p) => n + p.ids.length, 0));
  const ends = new Uint32Array(ids.length);
  const bytes = new Uint8Array(pages.reduce((n, p) => n + p.bytes.length, 0));
  let at = 0;
  let offset = 0;
  for (const page of pages) {
    ids.set(page.ids, at);
    for (let i = 0; i < page.ends.length; i++) ends[at + i] = page.ends[i]! + offset;
    bytes.set(page.bytes, offset);
    at += page.ids.length;
    offset += page.bytes.length;
  }
  const fields = pages.map((p) => p.fields.slice(1, -1)).filter((f) => f.length > 0);
  return {
    ids,
    bytes,
    ends,
    fields: `[${fields.join(',')}]`,
    stale: [],
    lastId: pages.at(-1)?.lastId ?? null,
    count: pages.reduce((n, p) => n + p.count, 0),
  };
}
