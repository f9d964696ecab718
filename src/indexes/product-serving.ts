import { parseMoney } from '../domain/catalog/money.js';
import { isListable, isVariantInStock, splitTags, type Product } from '../domain/catalog/product.js';
import { deflateProduct } from './product-inflate.js';
import { serializeProduct, ProductJson } from './product-json.js';
import { columnsOf, type ProductColumns, type ServingFields } from './product-columns.js';
import { loadedPage } from './loaded-product.js';
import type { ServedProduct } from '../store/kysely/product-serving.js';
import type { IndexedProduct } from './shop-catalog.js';

/**
 * The version of what `servingRow` writes: the answer bytes of `serializeProduct` (deflated
 * against the product dictionary since version 2) and the index fields below. Any change to
 * either bumps it; rows of another version are not read (the loader serializes those products
 * from their documents) and a migration writes them again (src/store/kysely/product-serving.ts).
 */
export const SERVING_VERSION = 2;

/** A product ready to serve, as stored beside its document. */
export interface ServingRow {
  readonly version: number;
  /** The product's answer bytes (the common form, then its metafields pieces), deflated as memory keeps them. */
  readonly body: Buffer;
  /** The index fields and the answer's layout, as JSON (`ServingFields`). */
  readonly fields: string;
}

function fieldsOf(product: Product, json: ProductJson): ServingFields {
  return {
    h: product.handle,
    t: product.title,
    i: product.image?.src ?? product.images[0]?.src ?? null,
    v: product.vendor,
    p: product.product_type,
    g: splitTags(product.tags),
    l: isListable(product) ? 1 : 0,
    vs: product.variants.flatMap((v) => [v.id, parseMoney(v.price) ?? 0, isVariantInStock(v) ? 1 : 0]),
    o: json.layout(),
  };
}

/** What is stored for a product when it is written (its live inventory merged in). */
export function servingRow(product: Product): ServingRow {
  const json = serializeProduct(product);
  return {
    version: SERVING_VERSION,
    body: deflateProduct(json.bytes),
    fields: JSON.stringify(fieldsOf(product, json)),
  };
}

/** The read model's product from its document: serialized (and deflated) here and now. */
export function indexProduct(product: Product): IndexedProduct {
  return indexProducts([product])[0]!;
}

/** Products from their documents, their variants in one page's arrays (not two small arrays each). */
export function indexProducts(products: readonly Product[]): IndexedProduct[] {
  const jsons = products.map(serializeProduct);
  const columns = columnsOf(products.map((product, i) => fieldsOf(product, jsons[i]!)));
  const ids = Float64Array.from(products, (product) => product.id);
  return loadedPage(ids, columns, { made: jsons.map((json) => json.deflate()) });
}

/**
 * A page of a shop's products as a load receives it: the answer bytes of every product with a
 * current row in one buffer, their index fields as columns (all moved between threads, not
 * copied), and the ids of the products that must be read from their documents instead.
 */
export interface PackedProducts {
  /** Ids of the products with a current row, in id order. */
  readonly ids: Float64Array;
  /** Their bytes, one after another; `ends[i]` is where product i's bytes end. */
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
  /** Their index fields. */
  readonly fields: ProductColumns;
  /** Products without a current row (none stored yet, or an older serializer's). */
  readonly stale: number[];
  /** The id of the last product of the page, where the next page starts; null for an empty page. */
  readonly lastId: number | null;
  /** Rows the page held, current or not. */
  readonly count: number;
}

/** A page as a load reads it: its packed products, their stored size, and whether the shop has more after them. */
export interface ReadPage extends PackedProducts {
  /** Bytes of the rows packed, answer bytes and index fields as stored. */
  readonly size: number;
  /** Whether rows may follow `lastId`: the page held its limit, or was cut at its bytes. */
  readonly more: boolean;
}

/** Bytes of a stored row as a page counts them: its answer bytes and its fields' text. */
const rowBytes = (row: ServedProduct): number => (row.body?.length ?? 0) + (row.fields?.length ?? 0);

/**
 * Packs the rows of a page read by `limit` (none: by ids), cut after the row that takes their bytes
 * to `maxBytes`: what packing costs grows with the bytes (a product at the platform's bounds, 250
 * tags of 255 characters, is 60 KB of fields), and a page is one stretch of its thread's loop.
 */
export function packPage(rows: readonly ServedProduct[], page: { limit?: number; maxBytes: number }): ReadPage {
  let size = 0;
  let kept = 0;
  while (kept < rows.length && size < page.maxBytes) size += rowBytes(rows[kept++]!);
  const cut = kept < rows.length;
  return {
    ...packServed(cut ? rows.slice(0, kept) : rows),
    size,
    more: kept > 0 && (cut || (page.limit !== undefined && rows.length >= page.limit)),
  };
}

/** Whether a stored row is this serializer's, to be read as it is. */
const isCurrent = (row: ServedProduct): boolean =>
  row.version === SERVING_VERSION && row.body !== null && row.fields !== null;

/** Packs rows read from the store (in the assembly thread, or here when there is none). */
export function packServed(rows: readonly ServedProduct[]): PackedProducts {
  const ready = rows.filter(isCurrent);
  const bytes = new Uint8Array(ready.reduce((n, r) => n + r.body!.length, 0));
  const ends = new Uint32Array(ready.length);
  const ids = new Float64Array(ready.length);
  let offset = 0;
  for (let i = 0; i < ready.length; i++) {
    const row = ready[i]!;
    bytes.set(row.body!, offset);
    offset += row.body!.length;
    ends[i] = offset;
    ids[i] = row.id;
  }
  return {
    ids,
    bytes,
    ends,
    fields: columnsOf(ready.map((r) => JSON.parse(r.fields!) as ServingFields)),
    stale: ready.length === rows.length ? [] : rows.filter((r) => !isCurrent(r)).map((r) => r.id),
    lastId: rows.length > 0 ? rows[rows.length - 1]!.id : null,
    count: rows.length,
  };
}

/**
 * The read model's products of a packed page: each product's bytes stay where they are in the
 * page's buffer, its offsets in the page's layout table and its variants in the page's arrays.
 */
export function unpackServed(packed: PackedProducts): IndexedProduct[] {
  // Only what the answers are made of is held for them, not the page's columns of strings.
  const { bytes, ends } = packed;
  const { layouts, layoutEnds } = packed.fields;
  const answerOf = (i: number) => {
    const at = i === 0 ? 0 : layoutEnds[i - 1]!;
    return ProductJson.inPage(bytes, i === 0 ? 0 : ends[i - 1]!, ends[i]!, layouts, at, layoutEnds[i]! - at);
  };
  return loadedPage(packed.ids, packed.fields, { make: answerOf, ends });
}
