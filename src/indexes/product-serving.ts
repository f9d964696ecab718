import { parseMoney } from '../domain/catalog/money.js';
import { isListable, isVariantInStock, splitTags, type Product } from '../domain/catalog/product.js';
import { deflateProduct, serializeProduct, ProductJson } from './product-json.js';
import { columnsOf, type ProductColumns, type ServingFields } from './product-columns.js';
import { SharedStrings } from './shared-strings.js';
import type { ServedProduct } from '../store/kysely/product-serving.js';
import type { IndexedProduct, IndexedVariant } from './shop-catalog.js';

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
  const page = { numbers: columns.variants, stock: columns.stock };
  const strings = new SharedStrings();
  return products.map((product, i) => new LoadedProduct(product.id, jsons[i]!.deflate(), columns, i, page, strings));
}

/** Tags lower-cased for matching: the same array when they already are (most shops' tags), not a copy. */
function lowerCased(tags: readonly string[], strings: SharedStrings): readonly string[] {
  for (let i = 0; i < tags.length; i++)
    if (tags[i]!.toLowerCase() !== tags[i]) return strings.list(tags.map((t) => t.toLowerCase()));
  return tags;
}

/** The main image's URL of a product's answer (the admin insights show it; nothing on the storefront path). */
function mainImage(json: ProductJson): string | null {
  const product = JSON.parse(json.plain.toString()) as {
    image?: { src?: string } | null;
    images?: { src?: string }[];
  };
  return product.image?.src ?? product.images?.[0]?.src ?? null;
}

/** The variants of a page of products: id and price two numbers a variant, in stock one byte. */
interface VariantPage {
  readonly numbers: Float64Array;
  readonly stock: Uint8Array;
}

/**
 * A product of the read model whose variants stay in its page's arrays: kept as objects (a boxed
 * id and an object each) they were about 110 bytes a variant of every resident shop. The list is
 * made on each read; the hot paths read it for the few products of an answer.
 */
class LoadedProduct implements IndexedProduct {
  readonly id: number;
  readonly handle: string;
  readonly title: string;
  readonly vendor: string;
  readonly productType: string;
  readonly tags: readonly string[];
  readonly tagsLower: readonly string[];
  readonly listable: boolean;
  readonly inStock: boolean;
  readonly json: ProductJson;
  // Private in the language's own sense: not an own property that a spread or a comparison sees.
  readonly #page: VariantPage;
  readonly #first: number;
  readonly #count: number;

  /** Product `i` of a page's columns; `page`, the columns' variants, is shared by the page's products. */
  constructor(id: number, json: ProductJson, c: ProductColumns, i: number, page: VariantPage, strings: SharedStrings) {
    this.id = id;
    this.handle = c.text[4 * i]!;
    this.title = c.text[4 * i + 1]!;
    this.vendor = strings.one(c.text[4 * i + 2]!);
    this.productType = strings.one(c.text[4 * i + 3]!);
    this.tags = strings.listIn(c.tags, i === 0 ? 0 : c.tagEnds[i - 1]!, c.tagEnds[i]!);
    this.tagsLower = lowerCased(this.tags, strings);
    this.listable = c.listable[i] === 1;
    const first = i === 0 ? 0 : c.variantEnds[i - 1]!;
    this.#page = page;
    this.#first = first;
    this.#count = c.variantEnds[i]! - first;
    let inStock = false;
    for (let v = first; v < first + this.#count; v++) inStock ||= page.stock[v] === 1;
    this.inStock = inStock;
    this.json = json;
  }

  /** Read from the answer bytes: kept as a string it was about 70 bytes a product, for a rare admin read. */
  get image(): string | null {
    return mainImage(this.json);
  }

  get variantCount(): number {
    return this.#count;
  }

  get variants(): readonly IndexedVariant[] {
    const out: IndexedVariant[] = new Array(this.#count);
    const { numbers, stock } = this.#page;
    for (let i = 0, v = this.#first; i < this.#count; i++, v++)
      out[i] = { id: numbers[2 * v]!, price: numbers[2 * v + 1]!, inStock: stock[v] === 1 };
    return out;
  }
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
  const c = packed.fields;
  const page = { numbers: c.variants, stock: c.stock };
  const strings = new SharedStrings();
  const out: IndexedProduct[] = new Array(packed.ids.length);
  let start = 0;
  let at = 0;
  for (let i = 0; i < out.length; i++) {
    const end = packed.ends[i]!;
    const json = ProductJson.inPage(packed.bytes, start, end, c.layouts, at, c.layoutEnds[i]! - at);
    out[i] = new LoadedProduct(packed.ids[i]!, json, c, i, page, strings);
    start = end;
    at = c.layoutEnds[i]!;
  }
  return out;
}
