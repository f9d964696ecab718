import { deserialize, serialize } from 'node:v8';
import type { Collection, Customer } from '../domain/catalog/collection.js';
import type { Market } from '../domain/catalog/market.js';
import type { SoldLine } from '../store/kysely/commerce.js';
import { SERVING_VERSION, type PackedProducts } from './product-serving.js';

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
  /** Sold lines, oldest first, as the store lists them. */
  readonly lines: SoldLine[];
}

/**
 * The snapshot's layout; a stored snapshot of another format, or of another serializer of the
 * products' bytes, is not read (the load reads the parts and writes a new one).
 */
const LAYOUT = 1;
export const SNAPSHOT_FORMAT = LAYOUT * 1000 + SERVING_VERSION;

/**
 * Lists of objects are kept as columns: V8 makes a deserialized object property by property, and
 * the objects it makes are slow to read (a shop's 300 customers took 0.25 ms to deserialize, and
 * as long again to index); typed arrays and strings are copied as they are.
 */
interface Columns {
  lines: {
    order: Float64Array;
    product: Float64Array;
    quantity: Float64Array;
    customer: Float64Array;
    at: Float64Array;
  };
  customers: { ids: Float64Array; emails: string[]; hasEmail: Uint8Array; tags: string };
  collections: {
    ids: Float64Array;
    text: string[];
    sizes: Uint32Array;
    members: Float64Array;
    positions: Float64Array;
  };
}

function lineColumns(lines: readonly SoldLine[]): Columns['lines'] {
  const n = lines.length;
  const out = {
    order: new Float64Array(n),
    product: new Float64Array(n),
    quantity: new Float64Array(n),
    customer: new Float64Array(n),
    at: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const line = lines[i]!;
    out.order[i] = line.orderId;
    out.product[i] = line.productId;
    out.quantity[i] = line.quantity;
    out.customer[i] = line.customerId ?? Number.NaN; // no customer
    out.at[i] = line.at;
  }
  return out;
}

function linesOf(c: Columns['lines']): SoldLine[] {
  const lines = new Array<SoldLine>(c.order.length);
  for (let i = 0; i < lines.length; i++) {
    const customer = c.customer[i]!;
    const customerId = Number.isNaN(customer) ? null : customer;
    lines[i] = { orderId: c.order[i]!, productId: c.product[i]!, quantity: c.quantity[i]!, customerId, at: c.at[i]! };
  }
  return lines;
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

/** About the bytes `encodeSnapshot` makes of the parts, known before it makes them. */
export function snapshotBytes(parts: LoadParts): number {
  const members = parts.collections.reduce((n, c) => n + c.products.length, 0);
  const emails = parts.customers.reduce((n, c) => n + (c.email?.length ?? 0), 0);
  const products = parts.products.bytes.byteLength + parts.products.fields.length + 12 * parts.products.ids.length;
  return products + 40 * parts.lines.length + 16 * members + 12 * parts.customers.length + emails;
}

/** One value of the parts, in V8's serialization (structured clone), lists of objects as columns. */
export function encodeSnapshot(parts: LoadParts): Uint8Array {
  const { ids, bytes, ends, fields, count, lastId } = parts.products;
  const columns: Columns = {
    lines: lineColumns(parts.lines),
    customers: customerColumns(parts.customers),
    collections: collectionColumns(parts.collections),
  };
  return serialize({ products: { ids, bytes, ends, fields, count, lastId }, markets: parts.markets, ...columns });
}

export function decodeSnapshot(body: Uint8Array): LoadParts {
  const value = deserialize(body) as Columns & { products: Omit<PackedProducts, 'stale'>; markets: Market[] };
  return {
    products: { ...value.products, stale: [] },
    collections: collectionsOf(value.collections),
    markets: value.markets,
    customers: customersOf(value.customers),
    lines: linesOf(value.lines),
  };
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
