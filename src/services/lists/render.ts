import { productBytes, productString } from '../../indexes/product-json.js';
import type { CommonOptions } from './options.js';
import type { Picked } from './select.js';

const COMMA = Buffer.from(',');

/** The JSON array of products, assembled from pre-serialized pieces. */
export function productArrayParts(picked: readonly Picked[], options: Pick<CommonOptions, 'metafields' | 'variantMetafields'>): Buffer[] {
  const parts: Buffer[] = [];
  for (let i = 0; i < picked.length; i++) {
    const p = picked[i]!;
    if (i > 0) parts.push(COMMA);
    parts.push(productBytes(p.product.json, {
      metafields: options.metafields,
      variantMetafields: options.variantMetafields,
      ...(p.keep ? { keepVariants: p.keep } : {}),
      ...(p.marketVariants ? { marketVariants: p.marketVariants } : {}),
    }));
  }
  return parts;
}

const DATA_OPEN = Buffer.from('{"data":[');
const DATA_CLOSE = Buffer.from(']}');

/** `{"data":[…]}` for a list answer. */
export function renderDataList(picked: readonly Picked[], options: Pick<CommonOptions, 'metafields' | 'variantMetafields'>): Buffer {
  return Buffer.concat([DATA_OPEN, ...productArrayParts(picked, options), DATA_CLOSE]);
}

/** One product as a string (for answers that embed products in larger documents). */
export function productJsonString(p: Picked, options: Pick<CommonOptions, 'metafields' | 'variantMetafields'>): string {
  return productString(p.product.json, {
    metafields: options.metafields,
    variantMetafields: options.variantMetafields,
    ...(p.keep ? { keepVariants: p.keep } : {}),
    ...(p.marketVariants ? { marketVariants: p.marketVariants } : {}),
  });
}
