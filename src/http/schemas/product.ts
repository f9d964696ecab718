import { Type } from '@sinclair/typebox';
import { ErrorResponse } from './errors.js';

/** The public API's Product shape, for response documentation (answers are assembled from pre-serialized bytes). */
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const MetafieldSchema = Type.Object(
  {
    id: Type.Integer(),
    owner_id: Type.Integer(),
    namespace: Type.String(),
    key: Type.String(),
    value: Type.String(),
    value_type: Type.String(),
    description: Nullable(Type.String()),
    owner_resource: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
    admin_graphql_api_id: Type.String(),
  },
  { $id: 'Metafield' },
);

export const VariantSchema = Type.Object(
  {
    id: Type.Integer(),
    product_id: Type.Integer(),
    title: Type.String(),
    price: Type.String(),
    compare_at_price: Nullable(Type.String()),
    sku: Nullable(Type.String()),
    position: Type.Integer(),
    inventory_policy: Type.String(),
    inventory_management: Nullable(Type.String()),
    inventory_quantity: Type.Integer(),
    old_inventory_quantity: Type.Integer(),
    fulfillment_service: Type.String(),
    option1: Nullable(Type.String()),
    option2: Nullable(Type.String()),
    option3: Nullable(Type.String()),
    taxable: Type.Boolean(),
    requires_shipping: Type.Boolean(),
    barcode: Type.String(),
    grams: Type.Integer(),
    weight: Type.Number(),
    weight_unit: Type.String(),
    image_id: Type.Union([Type.Integer(), Type.Null()]),
    inventory_item_id: Type.Integer(),
    tax_code: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
    admin_graphql_api_id: Type.Optional(Type.String()),
    metafields: Type.Optional(Type.Array(Type.Ref('Metafield'), { description: 'only with variant_metafields=yes' })),
  },
  { $id: 'Variant' },
);

export const ImageSchema = Type.Object(
  {
    id: Type.Integer(),
    product_id: Type.Integer(),
    position: Type.Integer(),
    created_at: Type.String(),
    updated_at: Type.String(),
    alt: Nullable(Type.String()),
    width: Type.Integer(),
    height: Type.Integer(),
    src: Type.String(),
    variant_ids: Type.Array(Type.Integer()),
    admin_graphql_api_id: Type.Optional(Type.String()),
  },
  { $id: 'Image' },
);

const productFields = {
  id: Type.Integer(),
  title: Type.String(),
  body_html: Type.String(),
  vendor: Type.String(),
  product_type: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  published_at: Type.String(),
  handle: Type.String(),
  template_suffix: Nullable(Type.String()),
  published_scope: Type.String(),
  tags: Type.String({ description: 'comma-separated' }),
  admin_graphql_api_id: Type.Optional(Type.String()),
  variants: Type.Array(Type.Ref('Variant')),
  options: Type.Array(
    Type.Object({
      id: Type.Integer(),
      product_id: Type.Integer(),
      name: Type.String(),
      position: Type.Integer(),
      values: Type.Array(Type.String()),
    }),
  ),
  images: Type.Array(Type.Ref('Image')),
  image: Type.Union([Type.Ref('Image'), Type.Null()]),
  metafields: Type.Optional(Type.Array(Type.Ref('Metafield'), { description: 'only with metafields=yes' })),
};

export const ProductSchema = Type.Object(productFields, { $id: 'Product' });

/** A product as the admin API reads it: every metafield, its status, and no publication date for an unpublished one. */
export const AdminProductSchema = Type.Object({
  ...productFields,
  published_at: Nullable(Type.String()),
  metafields: Type.Array(Type.Ref('Metafield')),
  status: Type.String({ description: 'active, draft or archived (never in the public API)' }),
});

/** Shared schemas registered once on the app, referenced by $id. */
export const sharedSchemas = [MetafieldSchema, VariantSchema, ImageSchema, ProductSchema, ErrorResponse];
