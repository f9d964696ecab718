import type { Market } from '../domain/catalog/market.js';
import { priceInMarket, type FixedPrice } from '../domain/catalog/market.js';
import type { Product } from '../domain/catalog/product.js';
import { deflateProduct, INFLATED_CACHE_BYTES, RecentlyInflated } from './product-inflate.js';

/**
 * A product pre-serialized once per change, so answers are assembled from bytes instead of
 * stringifying objects per request. Everything is one Buffer: the common form (no metafields, all
 * variants, base prices) first, ready to send, then the `,"metafields":[…]` pieces of the product
 * and of each variant. The pieces other forms need (head = `{"id":…,"variants":[`, each variant,
 * tail = `],"options":…,"image":…`, the metafields) are byte ranges of it, decoded only when asked
 * for. The same bytes and offsets are what is stored with the product (product-serving.ts).
 *
 * A resident product keeps that Buffer deflated against a preset dictionary of the document's
 * keys (about a sixth of its size, product-dictionary.ts): answer bytes were two thirds of a
 * resident product's memory. Each read inflates it (about 20 µs); finished answers are cached.
 */
export class ProductJson {
  private constructor(
    /** Bytes holding this product's (deflated when `packed`): its own, or a whole page of products'. */
    private readonly data: Uint8Array,
    private readonly start: number,
    private readonly end: number,
    /** Offsets (head end; each variant's start and end; tail start; end of the common form; end of each
     * metafields piece) at `at .. at + count` of a table of its own or of its page's. */
    private readonly table: Uint32Array,
    private readonly at: number,
    private readonly count: number,
    private readonly packed: boolean,
  ) {}

  /** A product's own bytes and offsets, as serialized. */
  static plain(bytes: Buffer, offsets: Uint32Array): ProductJson {
    return new ProductJson(bytes, 0, bytes.length, offsets, 0, offsets.length, false);
  }

  /** The same product with its bytes deflated (what the read model keeps). */
  static deflated(stored: Buffer, offsets: Uint32Array): ProductJson {
    return new ProductJson(stored, 0, stored.length, offsets, 0, offsets.length, true);
  }

  /**
   * A product of a loaded page: its deflated bytes are `bytes[start, end)` and its offsets
   * `table[at, at + count)`, both shared with the page's other products. Per product, that is this
   * object alone (a view and a typed array of its own took 350 bytes more).
   */
  static inPage(bytes: Uint8Array, start: number, end: number, table: Uint32Array, at: number, count: number) {
    return new ProductJson(bytes, start, end, table, at, count, true);
  }

  /** The whole Buffer, inflated: the common form, then the metafields pieces. */
  get bytes(): Buffer {
    // Unpacked, the bytes are a whole Buffer of the product's own (serialized, or inflated by `open`).
    return this.packed ? recentlyInflated.get(this) : (this.data as Buffer);
  }

  /** The bytes as kept in memory (deflated or not), as a Buffer (a view, made on each call). */
  get storedBytes(): Buffer {
    return Buffer.from(this.data.buffer, this.data.byteOffset + this.start, this.end - this.start);
  }

  /** The length of the bytes inflated: the end of the last metafields piece. */
  get inflatedLength(): number {
    return this.offset(this.count - 1);
  }

  /** Their length: what the memory budget counts. */
  get storedLength(): number {
    return this.end - this.start;
  }

  /** This product with its bytes inflated once, for several reads in a row. */
  open(): ProductJson {
    if (!this.packed) return this;
    const bytes = this.bytes;
    return new ProductJson(bytes, 0, bytes.length, this.table, this.at, this.count, false);
  }

  /** This product with its bytes deflated (a no-op when they are). */
  deflate(): ProductJson {
    if (this.packed) return this;
    const stored = deflateProduct(this.storedBytes);
    return new ProductJson(stored, 0, stored.length, this.table, this.at, this.count, true);
  }

  private offset(i: number): number {
    return this.table[this.at + i]!;
  }

  /** The common form as bytes, ready to send. */
  get plain(): Buffer {
    return this.bytes.subarray(0, this.offset(this.variantCount * 2 + 2));
  }

  private get variantCount(): number {
    return (this.count - 4) / 3;
  }

  /** The offsets as stored beside the bytes. */
  layout(): number[] {
    return [...this.table.subarray(this.at, this.at + this.count)];
  }

  get head(): string {
    return this.bytes.toString('utf8', 0, this.offset(0));
  }

  get variants(): string[] {
    const bytes = this.bytes;
    const out: string[] = [];
    for (let i = 0; i < this.variantCount; i++)
      out.push(bytes.toString('utf8', this.offset(1 + 2 * i), this.offset(2 + 2 * i)));
    return out;
  }

  get tail(): string {
    const at = this.variantCount * 2 + 1;
    return this.bytes.toString('utf8', this.offset(at), this.offset(at + 1) - 1);
  }

  /** `,"metafields":[…]` of the product. */
  get metafields(): string {
    const at = this.variantCount * 2 + 2;
    return this.bytes.toString('utf8', this.offset(at), this.offset(at + 1));
  }

  /** `,"metafields":[…]` per variant, spliced in before the variant's closing brace. */
  get variantMetafields(): string[] {
    const bytes = this.bytes;
    const at = this.variantCount * 2 + 3;
    const out: string[] = [];
    for (let i = 0; i < this.variantCount; i++)
      out.push(bytes.toString('utf8', this.offset(at + i), this.offset(at + i + 1)));
    return out;
  }
}

const recentlyInflated = new RecentlyInflated<ProductJson>(INFLATED_CACHE_BYTES);

export interface SerializeOptions {
  metafields?: boolean;
  variantMetafields?: boolean;
  /** Indexes of the variants to keep (unset_variants); all when absent. */
  keepVariants?: readonly number[];
  /** Variant strings priced for a market, replacing `variants`. */
  marketVariants?: readonly string[];
}

const EMPTY_METAFIELDS = ',"metafields":[]';

/**
 * The bytes of a string in a buffer of their own. Buffer.from packs small strings into shared 8 KB
 * slabs, and a slab lives as long as any product in it: once shops are evicted and loaded in turn,
 * slabs held alive by one resident product would keep the evicted shops' bytes in memory.
 */
function ownBuffer(text: string): Buffer {
  const buffer = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  buffer.write(text);
  return buffer;
}

export function serializeProduct(product: Product): ProductJson {
  const { variants, options, images, image, metafields, status: _status, ...head } = product;
  const headStr = `${JSON.stringify(head).slice(0, -1)},"variants":[`;
  const variantStrings = variants.map(({ metafields: _m, ...v }) => JSON.stringify(v));
  const tail =
    `],"options":${JSON.stringify(options)},"images":${JSON.stringify(images)}` + `,"image":${JSON.stringify(image)}`;
  const pieces = [metafields, ...variants.map((v) => v.metafields)].map((m) =>
    m.length === 0 ? EMPTY_METAFIELDS : `,"metafields":${JSON.stringify(m)}`,
  );
  const offsets = new Uint32Array(4 + 3 * variants.length);
  let offset = Buffer.byteLength(headStr);
  offsets[0] = offset;
  variantStrings.forEach((v, i) => {
    if (i > 0) offset += 1; // the comma
    offsets[1 + 2 * i] = offset;
    offset += Buffer.byteLength(v);
    offsets[2 + 2 * i] = offset;
  });
  let at = 2 * variants.length + 1;
  offsets[at++] = offset;
  offset += Buffer.byteLength(tail) + 1; // the closing brace
  offsets[at++] = offset;
  for (const piece of pieces) {
    offset += Buffer.byteLength(piece);
    offsets[at++] = offset;
  }
  return ProductJson.plain(ownBuffer(`${headStr}${variantStrings.join(',')}${tail}}${pieces.join('')}`), offsets);
}

/** The bytes of one product for the requested options; the plain buffer when nothing special is asked. */
export function productBytes(json: ProductJson, options: SerializeOptions): Buffer {
  if (!options.metafields && !options.variantMetafields && !options.keepVariants && !options.marketVariants)
    return json.plain;
  return Buffer.from(productString(json.open(), options));
}

export function productString(packed: ProductJson, options: SerializeOptions): string {
  const json = packed.open();
  const source = options.marketVariants ?? json.variants;
  const head = json.head;
  const indexes = options.keepVariants ?? source.map((_, i) => i);
  const variantMetafields = options.variantMetafields ? json.variantMetafields : null;
  const parts: string[] = [];
  for (const i of indexes) {
    const v = source[i]!;
    parts.push(variantMetafields ? `${v.slice(0, -1)}${variantMetafields[i]}}` : v);
  }
  return `${head}${parts.join(',')}${json.tail}${options.metafields ? json.metafields : ''}}`;
}

/** Variant strings with a market's prices (computed lazily and cached by the index). */
export function marketVariantStrings(
  json: ProductJson,
  market: Market,
  fixed: ReadonlyMap<number, FixedPrice>,
): string[] {
  return json.variants.map((text) => {
    const variant = JSON.parse(text) as { id: number; price: string; compare_at_price: string | null };
    const prices = priceInMarket(variant, market, fixed);
    variant.price = prices.price;
    variant.compare_at_price = prices.compare_at_price;
    return JSON.stringify(variant);
  });
}
