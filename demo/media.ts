import type { ProductInput } from '../src/domain/inputs/catalog.js';
import { escapeHtml } from './format.js';
import type { IdSequences } from './ids.js';
import type { Random } from './random.js';
import type { VariantIn } from './variants.js';
import { BENEFITS, IMAGE_VIEWS, type ProductTypeSpec } from './words.js';

type ImageIn = NonNullable<ProductInput['images']>[number];
type MetafieldIn = NonNullable<ProductInput['metafields']>[number];

export interface MediaContext {
  rng: Random;
  ids: IdSequences;
  productId: number;
  title: string;
  publicUrl: string;
  createdAt: string;
}

/**
 * 1–3 square SVG images. When the product comes in colours, the first images show one colour
 * each and link that colour's variants (and the variants point back through image_id).
 */
export function buildImages(ctx: MediaContext, variants: VariantIn[], colors: string[]): ImageIn[] {
  const count = ctx.rng.int(1, 3);
  return Array.from({ length: count }, (_, i): ImageIn => {
    const id = ctx.ids.image();
    const color = colors[i];
    const linked = color === undefined ? [] : variants.filter((v) => v.option1 === color || v.option2 === color);
    for (const variant of linked) variant.image_id = id;
    return {
      id,
      product_id: ctx.productId,
      position: i + 1,
      created_at: ctx.createdAt,
      updated_at: ctx.createdAt,
      alt: color === undefined ? `${ctx.title}, ${IMAGE_VIEWS[i] ?? 'detail'}` : `${ctx.title} in ${color}`,
      width: 800,
      height: 800,
      src: `${ctx.publicUrl}/demo/images/${ctx.productId}-${i + 1}.svg`,
      variant_ids: linked.map((v) => v.id),
    };
  });
}

/** Spec and care metafields, plain strings and serialized JSON. */
export function buildMetafields(ctx: MediaContext, spec: ProductTypeSpec, material: string): MetafieldIn[] {
  const { rng } = ctx;
  const field = (namespace: string, key: string, value: string, valueType: string): MetafieldIn => ({
    id: ctx.ids.metafield(),
    namespace,
    key,
    value,
    value_type: valueType,
    owner_id: ctx.productId,
    owner_resource: 'product',
    created_at: ctx.createdAt,
  });
  const fields = [
    field('specs', 'material', material, 'string'),
    field('specs', spec.spec.key, rng.pick(spec.spec.values), 'string'),
  ];
  if (rng.chance(0.6)) {
    const dimensions = { length_cm: rng.int(10, 220), width_cm: rng.int(8, 160), height_cm: rng.int(2, 140) };
    fields.push(field('specs', 'dimensions', JSON.stringify(dimensions), 'json_string'));
  }
  if (rng.chance(0.7)) {
    fields.push(
      rng.chance(0.5)
        ? field('care', 'instructions', JSON.stringify(spec.care), 'json_string')
        : field('care', 'instructions', rng.pick(spec.care), 'string'),
    );
  }
  return fields;
}

/** A short HTML description. */
export function buildBodyHtml(
  rng: Random,
  title: string,
  vendor: string,
  material: string,
  spec: ProductTypeSpec,
): string {
  const care = rng.pick(spec.care);
  const text =
    `The ${title} is ${rng.pick(BENEFITS)}. ` +
    `Made from ${material.toLowerCase()} by ${vendor.replace(/\.$/, '')}. ${care}`;
  return `<p>${escapeHtml(text)}</p>`;
}
