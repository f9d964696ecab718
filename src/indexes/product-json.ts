import type { Market } from '../domain/catalog/market.js';
import { priceInMarket, type FixedPrice } from '../domain/catalog/market.js';
import type { Product } from '../domain/catalog/product.js';

/**
 * A product pre-serialized in pieces, so an answer is assembled from strings and buffers made
 * once per change instead of stringifying objects per request:
 *   head = `{"id":…,"tags":…,"variants":[`, variants[i] = a variant without metafields,
 *   tail = `],"options":…,"image":…`, then optionally `,"metafields":[…]`, then `}`.
 */
export interface ProductJson {
  readonly head: string;
  readonly variants: readonly string[];
  /** `,"metafields":[…]` per variant, spliced in before the variant's closing brace. */
  readonly variantMetafields: readonly string[];
  readonly tail: string;
  readonly metafields: string;
  /** The common form (no metafields, all variants, base prices) as bytes, ready to send. */
  readonly plain: Buffer;
}

export interface SerializeOptions {
  metafields?: boolean;
  variantMetafields?: boolean;
  /** Indexes of the variants to keep (unset_variants); all when absent. */
  keepVariants?: readonly number[];
  /** Variant strings priced for a market, replacing `variants`. */
  marketVariants?: readonly string[];
}

export function serializeProduct(product: Product): ProductJson {
  const { variants, options, images, image, metafields, status: _status, ...head } = product;
  const variantStrings = variants.map(({ metafields: _m, ...v }) => JSON.stringify(v));
  const headJson = JSON.stringify(head);
  const headStr = `${headJson.slice(0, -1)},"variants":[`;
  const tail = `],"options":${JSON.stringify(options)},"images":${JSON.stringify(images)},"image":${JSON.stringify(image)}`;
  const json: Omit<ProductJson, 'plain'> = {
    head: headStr,
    variants: variantStrings,
    variantMetafields: variants.map((v) => `,"metafields":${JSON.stringify(v.metafields)}`),
    tail,
    metafields: `,"metafields":${JSON.stringify(metafields)}`,
  };
  return { ...json, plain: Buffer.from(`${headStr}${variantStrings.join(',')}${tail}}`) };
}

/** The bytes of one product for the requested options; the plain buffer when nothing special is asked. */
export function productBytes(json: ProductJson, options: SerializeOptions): Buffer {
  if (!options.metafields && !options.variantMetafields && !options.keepVariants && !options.marketVariants) return json.plain;
  return Buffer.from(productString(json, options));
}

export function productString(json: ProductJson, options: SerializeOptions): string {
  const source = options.marketVariants ?? json.variants;
  const indexes = options.keepVariants ?? source.map((_, i) => i);
  const parts: string[] = [];
  for (const i of indexes) {
    const v = source[i]!;
    parts.push(options.variantMetafields ? `${v.slice(0, -1)}${json.variantMetafields[i]}}` : v);
  }
  return `${json.head}${parts.join(',')}${json.tail}${options.metafields ? json.metafields : ''}}`;
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
