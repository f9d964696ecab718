import { productBytes } from '../../indexes/product-json.js';
import type { Picked } from '../../services/lists/pipeline.js';
import type { ListAnswer } from '../../services/lists/sources/index.js';

/** How products are written: the optional metafields of products and of variants. */
export interface RenderOptions {
  metafields: boolean;
  variant_metafields: boolean;
}

const COMMA = Buffer.from(',');
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

/** A JSON array of products, assembled from their pre-serialized bytes. */
export function productArray(picked: readonly Picked[], options: RenderOptions): Buffer[] {
  const parts: Buffer[] = [OPEN];
  for (let i = 0; i < picked.length; i++) {
    const p = picked[i]!;
    if (i > 0) parts.push(COMMA);
    parts.push(
      productBytes(p.product.json, {
        metafields: options.metafields,
        variantMetafields: options.variant_metafields,
        ...(p.keep ? { keepVariants: p.keep } : {}),
        ...(p.marketVariants ? { marketVariants: p.marketVariants } : {}),
      }),
    );
  }
  parts.push(CLOSE);
  return parts;
}

const DATA = Buffer.from('{"data":');
const END = Buffer.from('}');

/** `{"data": […], "metadata": {"source": …}}`. */
export function renderList(answer: ListAnswer, options: RenderOptions): Buffer {
  return Buffer.concat([
    DATA,
    ...productArray(answer.picked, options),
    Buffer.from(`,"metadata":${JSON.stringify(answer.metadata)}`),
    END,
  ]);
}

/** `format=pretty`: the same JSON, 2-space indented (a debugging aid, not the hot path). */
export function prettify(body: Buffer): Buffer {
  return Buffer.from(`${JSON.stringify(JSON.parse(body.toString('utf8')), null, 2)}\n`);
}
