import type { Market } from '../domain/catalog/market.js';
import { priceInMarket, type FixedPrice } from '../domain/catalog/market.js';
import type { Product } from '../domain/catalog/product.js';

/**
 * A product pre-serialized once per change, so answers are assembled from bytes instead of
 * stringifying objects per request. The common form (no metafields, all variants, base prices)
 * is kept as one Buffer; the pieces other forms need (head = `{"id":…,"variants":[`, each variant,
 * tail = `],"options":…,"image":…`) are byte ranges of it, decoded only when asked for.
 */
export class ProductJson {
  constructor(
    /** The common form as bytes, ready to send. */
    readonly plain: Buffer,
    private readonly headEnd: number,
    /** Start and end byte offsets of each variant inside `plain`. */
    private readonly spans: Uint32Array,
    private readonly tailStart: number,
    /** `,"metafields":[…]` per variant, spliced in before the variant's closing brace. */
    readonly variantMetafields: readonly string[],
    /** `,"metafields":[…]` of the product. */
    readonly metafields: string,
  ) {}

  get head(): string {
    return this.plain.toString('utf8', 0, this.headEnd);
  }

  get variants(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.spans.length; i += 2) out.push(this.plain.toString('utf8', this.spans[i], this.spans[i + 1]));
    return out;
  }

  get tail(): string {
    return this.plain.toString('utf8', this.tailStart, this.plain.length - 1);
  }
}

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
  const tail = `],"options":${JSON.stringify(options)},"images":${JSON.stringify(images)},"image":${JSON.stringify(image)}`;
  const spans = new Uint32Array(variantStrings.length * 2);
  let offset = Buffer.byteLength(headStr);
  const headEnd = offset;
  variantStrings.forEach((v, i) => {
    if (i > 0) offset += 1; // the comma
    spans[i * 2] = offset;
    offset += Buffer.byteLength(v);
    spans[i * 2 + 1] = offset;
  });
  const variantMetafields = variants.map((v) => (v.metafields.length === 0 ? EMPTY_METAFIELDS : `,"metafields":${JSON.stringify(v.metafields)}`));
  return new ProductJson(
    ownBuffer(`${headStr}${variantStrings.join(',')}${tail}}`),
    headEnd,
    spans,
    offset,
    variantMetafields,
    metafields.length === 0 ? EMPTY_METAFIELDS : `,"metafields":${JSON.stringify(metafields)}`,
  );
}

/** The bytes of one product for the requested options; the plain buffer when nothing special is asked. */
export function productBytes(json: ProductJson, options: SerializeOptions): Buffer {
  if (!options.metafields && !options.variantMetafields && !options.keepVariants && !options.marketVariants) return json.plain;
  return Buffer.from(productString(json, options));
}

export function productString(json: ProductJson, options: SerializeOptions): string {
  const source = options.marketVariants ?? json.variants;
  const head = json.head;
  const indexes = options.keepVariants ?? source.map((_, i) => i);
  const parts: string[] = [];
  for (const i of indexes) {
    const v = source[i]!;
    parts.push(options.variantMetafields ? `${v.slice(0, -1)}${json.variantMetafields[i]}}` : v);
  }
  return `${head}${parts.join(',')}${json.tail}${options.metafields ? json.metafields : ''}}`;
}

/** Variant strings with a market's prices (computed lazily and cached by the index). */
export function marketVariantStrings(json: ProductJson, market: Market, fixed: ReadonlyMap<number, FixedPrice>): string[] {
  return json.variants.map((text) => {
    const variant = JSON.parse(text) as { id: number; price: string; compare_at_price: string | null };
    const prices = priceInMarket(variant, market, fixed);
    variant.price = prices.price;
    variant.compare_at_price = prices.compare_at_price;
    return JSON.stringify(variant);
  });
}
