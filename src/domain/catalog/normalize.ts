import type { ProductInput } from '../inputs/catalog.js';
import type { Metafield, Product, ProductImage, Variant } from './product.js';

type MetafieldIn = NonNullable<ProductInput['metafields']>[number];
type ImageIn = NonNullable<ProductInput['images']>[number];

/** ISO 8601 with the offset kept when given; a missing offset is read as UTC. */
export function normalizeTimestamp(value: string): string {
  return /(?:Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value.replace(' ', 'T')}Z`;
}

/**
 * Turns a validated admin product into the stored and served shape: every field of the public API
 * present, defaults filled where the platform would have filled them.
 */
export function normalizeProduct(input: ProductInput, now: Date): Product {
  const nowIso = now.toISOString();
  const created = input.created_at ? normalizeTimestamp(input.created_at) : nowIso;
  const updated = input.updated_at ? normalizeTimestamp(input.updated_at) : created;
  const published =
    input.published_at === undefined
      ? created
      : input.published_at === null
        ? null
        : normalizeTimestamp(input.published_at);
  const id = input.id;
  const images = (input.images ?? []).map((image, i) => normalizeImage(image, id, i, created, updated));
  const product: Product = {
    id,
    title: input.title,
    body_html: input.body_html ?? '',
    vendor: input.vendor ?? '',
    product_type: input.product_type ?? '',
    created_at: created,
    updated_at: updated,
    published_at: published,
    handle: input.handle,
    template_suffix: input.template_suffix ?? null,
    published_scope: input.published_scope ?? 'web',
    tags: Array.isArray(input.tags) ? input.tags.join(', ') : (input.tags ?? ''),
    ...(input.admin_graphql_api_id !== undefined ? { admin_graphql_api_id: input.admin_graphql_api_id } : {}),
    variants: input.variants.map(
      (v, i): Variant => ({
        id: v.id,
        product_id: id,
        title: v.title ?? 'Default Title',
        price: v.price,
        compare_at_price: v.compare_at_price ?? null,
        sku: v.sku ?? null,
        position: v.position ?? i + 1,
        inventory_policy: v.inventory_policy ?? 'deny',
        inventory_management: v.inventory_management ?? null,
        inventory_quantity: v.inventory_quantity ?? 0,
        old_inventory_quantity: v.old_inventory_quantity ?? v.inventory_quantity ?? 0,
        fulfillment_service: v.fulfillment_service ?? 'manual',
        option1: v.option1 ?? null,
        option2: v.option2 ?? null,
        option3: v.option3 ?? null,
        taxable: v.taxable ?? true,
        requires_shipping: v.requires_shipping ?? true,
        barcode: v.barcode ?? '',
        grams: v.grams ?? 0,
        weight: v.weight ?? 0,
        weight_unit: v.weight_unit ?? 'g',
        image_id: v.image_id ?? null,
        inventory_item_id: v.inventory_item_id ?? v.id,
        tax_code: v.tax_code ?? '',
        created_at: v.created_at ? normalizeTimestamp(v.created_at) : created,
        updated_at: v.updated_at ? normalizeTimestamp(v.updated_at) : updated,
        ...(v.admin_graphql_api_id !== undefined ? { admin_graphql_api_id: v.admin_graphql_api_id } : {}),
        metafields: (v.metafields ?? []).map((m) => normalizeMetafield(m, v.id, 'variant', created)),
      }),
    ),
    options: (input.options ?? []).map((o, i) => ({
      id: o.id ?? id * 10 + i + 1,
      product_id: id,
      name: o.name,
      position: o.position ?? i + 1,
      values: o.values,
    })),
    images,
    image: input.image ? normalizeImage(input.image, id, 0, created, updated) : (images[0] ?? null),
    metafields: (input.metafields ?? []).map((m) => normalizeMetafield(m, id, 'product', created)),
    status: input.status ?? 'active',
  };
  return product;
}

function normalizeImage(
  image: ImageIn,
  productId: number,
  index: number,
  created: string,
  updated: string,
): ProductImage {
  return {
    id: image.id,
    product_id: productId,
    position: image.position ?? index + 1,
    created_at: image.created_at ? normalizeTimestamp(image.created_at) : created,
    updated_at: image.updated_at ? normalizeTimestamp(image.updated_at) : updated,
    alt: image.alt ?? null,
    width: image.width ?? 0,
    height: image.height ?? 0,
    src: image.src,
    variant_ids: image.variant_ids ?? [],
    ...(image.admin_graphql_api_id !== undefined ? { admin_graphql_api_id: image.admin_graphql_api_id } : {}),
  };
}

function normalizeMetafield(m: MetafieldIn, ownerId: number, ownerResource: string, created: string): Metafield {
  const createdAt = m.created_at ? normalizeTimestamp(m.created_at) : created;
  return {
    id: m.id,
    owner_id: m.owner_id ?? ownerId,
    namespace: m.namespace,
    key: m.key,
    value: m.value,
    value_type: m.value_type ?? (m.type?.includes('json') ? 'json_string' : 'string'),
    description: m.description ?? null,
    owner_resource: m.owner_resource ?? ownerResource,
    created_at: createdAt,
    updated_at: m.updated_at ? normalizeTimestamp(m.updated_at) : createdAt,
    admin_graphql_api_id: m.admin_graphql_api_id ?? `gid://shop/Metafield/${m.id}`,
  };
}
