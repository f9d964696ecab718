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
  const plain = !options.metafields && !options.variant_metafields;
  for (let i = 0; i < picked.length; i++) {
    const p = picked[i]!;
    if (i > 0) parts.push(COMMA);
    // The common case (no metafields, every variant, base prices) is the product's own bytes: no options object.
    if (plain && !p.keep && !p.marketVariants) {
      parts.push(p.product.json.plain);
      continue;
    }
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

/** `,"metadata":{"source":…}}` of each list whose metadata is its source alone (most answers): made once. */
const sourceEnds = new Map<string, Buffer>();

function metadataEnd(metadata: Record<string, unknown>): Buffer {
  const source = metadata.source;
  let only = typeof source === 'string';
  for (const key in metadata) if (key !== 'source') only = false;
  if (!only) return Buffer.from(`,"metadata":${JSON.stringify(metadata)}}`);
  let end = sourceEnds.get(source as string);
  if (end === undefined) {
    end = Buffer.from(`,"metadata":${JSON.stringify(metadata)}}`);
    if (sourceEnds.size < 256) sourceEnds.set(source as string, end);
  }
  return end;
}

/** `{"data": […], "metadata": {"source": …}}`; `previous` as in `assemble`. */
export function renderList(answer: ListAnswer, options: RenderOptions, previous?: Buffer): Buffer {
  const parts = productArray(answer.picked, options);
  parts.unshift(DATA);
  parts.push(metadataEnd(answer.metadata));
  return assemble(parts, previous);
}

/**
 * The parts as one Buffer; `previous` itself when they are its bytes. A recomputed answer is
 * mostly the stored one again, and a fresh Buffer of tens of KB per answer, with little else
 * allocated, is garbage only a full collection frees: measured, most of a computed answer's time.
 * The parts are compared with `previous` where they stand, so an equal answer is neither copied
 * nor held anywhere else.
 */
export function assemble(parts: readonly Buffer[], previous?: Buffer): Buffer {
  let length = 0;
  for (const part of parts) length += part.length;
  if (previous === undefined || previous.length !== length) return Buffer.concat(parts, length);
  let at = 0;
  for (const part of parts) {
    if (part.compare(previous, at, at + part.length) !== 0) return Buffer.concat(parts, length);
    at += part.length;
  }
  return previous;
}

/** `format=pretty`: the same JSON, 2-space indented (a debugging aid, not the hot path). */
export function prettify(body: Buffer): Buffer {
  return Buffer.from(`${JSON.stringify(JSON.parse(body.toString('utf8')), null, 2)}\n`);
}
