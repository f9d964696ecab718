import { MONEY_PATTERN } from '../catalog/money.js';
import { Type, type Static } from '@sinclair/typebox';
import { MAX_CART_TOKEN_LENGTH } from '../attribution/attribute.js';

/** Admin API input documents for the catalog (docs/api.md, "Admin API"). Unknown fields are refused, never dropped. */

const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 timestamp with offset' });
const Decimal = Type.String({
  pattern: MONEY_PATTERN,
  patternMessage: 'must be a decimal amount below 900000000000, such as "19.99"',
  description: 'decimal string below 900000000000, e.g. "19.99"',
});
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
/**
 * A name, code or label of the platform's, bounded as the platform bounds it (a vendor, a type, a SKU, an
 * option value): unbounded, a vendor of 600,000 words cost every search-index rebuild 5 s.
 */
const Name = Type.String({ maxLength: 255 });
const strict = { additionalProperties: false } as const;
/** What PostgreSQL's integer column holds: a position past it was a 500 there, and stored on SQLite. */
const Position = (minimum: number) => Type.Integer({ minimum, maximum: 2_147_483_647 });
/** Units in stock, or short of it: far beyond any shop, and within every column that holds them. */
const Quantity = Type.Integer({ minimum: -1_000_000_000, maximum: 1_000_000_000 });
/**
 * The platform's own bound: 250 tags, each of at most 255 characters, as a list or a comma list. A
 * ruleset's tag conditions read every input product's tags on each request: unbounded, one shop's
 * catalog of 2,000 tags a product held the process for a minute a request.
 */
const Tags = Type.Union([
  Type.String({
    maxLength: 64_000,
    pattern: '^[^,]{0,256}(,[^,]{0,256}){0,249}$',
    patternMessage: 'must hold at most 250 tags, each of at most 255 characters',
  }),
  Type.Array(
    Type.String({ maxLength: 255, pattern: '^[^,]*$', patternMessage: 'must be one tag: a tag holds no comma' }),
    { maxItems: 250 },
  ),
]);

export const MetafieldInput = Type.Object(
  {
    id: Id,
    namespace: Type.String({ minLength: 1, maxLength: 255 }),
    key: Type.String({ minLength: 1, maxLength: 255 }),
    value: Type.String({ maxLength: 65_536 }),
    value_type: Type.Optional(Name),
    type: Type.Optional(Type.String({ maxLength: 255, description: 'newer platform name of value_type' })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
    owner_id: Type.Optional(Id),
    owner_resource: Type.Optional(Name),
    created_at: Type.Optional(Timestamp),
    updated_at: Type.Optional(Timestamp),
    admin_graphql_api_id: Type.Optional(Name),
  },
  strict,
);

export const VariantInput = Type.Object(
  {
    id: Id,
    product_id: Type.Optional(Id),
    // Its option values joined, up to three of 255 characters each.
    title: Type.Optional(Type.String({ maxLength: 1024 })),
    price: Decimal,
    compare_at_price: Type.Optional(Type.Union([Decimal, Type.Null()])),
    sku: Type.Optional(Nullable(Name)),
    position: Type.Optional(Position(1)),
    inventory_policy: Type.Optional(Type.Union([Type.Literal('deny'), Type.Literal('continue')])),
    inventory_management: Type.Optional(Nullable(Name)),
    inventory_quantity: Type.Optional(Quantity),
    old_inventory_quantity: Type.Optional(Quantity),
    fulfillment_service: Type.Optional(Name),
    option1: Type.Optional(Nullable(Name)),
    option2: Type.Optional(Nullable(Name)),
    option3: Type.Optional(Nullable(Name)),
    taxable: Type.Optional(Type.Boolean()),
    requires_shipping: Type.Optional(Type.Boolean()),
    barcode: Type.Optional(Nullable(Name)),
    grams: Type.Optional(Type.Integer({ minimum: 0 })),
    weight: Type.Optional(Type.Number({ minimum: 0 })),
    weight_unit: Type.Optional(Name),
    image_id: Type.Optional(Type.Union([Id, Type.Null()])),
    inventory_item_id: Type.Optional(Type.Union([Id, Type.Null()])),
    tax_code: Type.Optional(Nullable(Name)),
    created_at: Type.Optional(Timestamp),
    updated_at: Type.Optional(Timestamp),
    admin_graphql_api_id: Type.Optional(Name),
    metafields: Type.Optional(Type.Array(MetafieldInput, { maxItems: 250 })),
  },
  strict,
);

export const OptionInput = Type.Object(
  {
    id: Type.Optional(Id),
    product_id: Type.Optional(Id),
    name: Type.String({ minLength: 1, maxLength: 255 }),
    position: Type.Optional(Position(1)),
    values: Type.Array(Name, { maxItems: 2048 }),
  },
  strict,
);

export const ImageInput = Type.Object(
  {
    id: Id,
    product_id: Type.Optional(Id),
    position: Type.Optional(Position(1)),
    created_at: Type.Optional(Timestamp),
    updated_at: Type.Optional(Timestamp),
    alt: Type.Optional(Nullable(Type.String({ maxLength: 512 }))),
    width: Type.Optional(Type.Integer({ minimum: 0 })),
    height: Type.Optional(Type.Integer({ minimum: 0 })),
    src: Type.String({ minLength: 1, maxLength: 2048 }),
    // The variants it shows: a product holds at most 2,048.
    variant_ids: Type.Optional(Type.Array(Id, { maxItems: 2048 })),
    admin_graphql_api_id: Type.Optional(Name),
  },
  strict,
);

export const ProductInput = Type.Object(
  {
    id: Id,
    title: Type.String({ minLength: 1, maxLength: 1024 }),
    handle: Type.String({
      pattern: '^[^\\s/?#,]+$',
      patternMessage: 'must not hold blanks, slashes, commas, ? or #',
      maxLength: 255,
      description: 'url-safe handle: no spaces, slashes, commas, ? or #',
    }),
    body_html: Type.Optional(Nullable(Type.String({ maxLength: 512_000 }))),
    vendor: Type.Optional(Nullable(Name)),
    product_type: Type.Optional(Nullable(Name)),
    created_at: Type.Optional(Timestamp),
    updated_at: Type.Optional(Timestamp),
    published_at: Type.Optional(
      Type.Union([Timestamp, Type.Null()], { description: 'null = unpublished; omitted = published at created_at' }),
    ),
    template_suffix: Type.Optional(Nullable(Name)),
    published_scope: Type.Optional(Name),
    tags: Type.Optional(Tags),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('draft'), Type.Literal('archived')])),
    admin_graphql_api_id: Type.Optional(Name),
    variants: Type.Array(VariantInput, { minItems: 1, maxItems: 2048 }),
    options: Type.Optional(Type.Array(OptionInput, { maxItems: 3 })),
    images: Type.Optional(Type.Array(ImageInput, { maxItems: 250 })),
    image: Type.Optional(Type.Union([ImageInput, Type.Null()])),
    metafields: Type.Optional(Type.Array(MetafieldInput, { maxItems: 250 })),
  },
  strict,
);
export type ProductInput = Static<typeof ProductInput>;

export const CollectionInput = Type.Object(
  {
    id: Id,
    title: Type.String({ minLength: 1, maxLength: 1024 }),
    handle: Type.String({ minLength: 1, maxLength: 255 }),
    products: Type.Array(Type.Object({ product_id: Id, position: Type.Optional(Position(0)) }, strict), {
      maxItems: 100_000,
    }),
    updated_at: Type.Optional(Timestamp),
  },
  strict,
);
export type CollectionInput = Static<typeof CollectionInput>;

export const InventoryInput = Type.Object(
  {
    variant_id: Id,
    inventory_quantity: Quantity,
  },
  strict,
);
export type InventoryInput = Static<typeof InventoryInput>;

export const CustomerInput = Type.Object({
  id: Id,
  email: Type.Optional(Nullable(Type.String({ maxLength: 320 }))),
  tags: Type.Optional(Tags),
  updated_at: Type.Optional(Timestamp),
}); // a subset of the platform's customer: its other fields are ignored on purpose
export type CustomerInput = Static<typeof CustomerInput>;

export const MarketInput = Type.Object(
  {
    id: Id,
    name: Type.String({ minLength: 1, maxLength: 255 }),
    position: Type.Optional(Position(0)),
    active: Type.Optional(Type.Boolean()),
    countries: Type.Array(
      Type.String({ pattern: '^[A-Za-z]{2}$', patternMessage: 'must be a two-letter country code such as US' }),
      // Every country there is, once.
      { minItems: 1, maxItems: 250 },
    ),
    currency: Type.String({
      pattern: '^[A-Za-z]{3}$',
      patternMessage: 'must be a three-letter currency code such as USD',
    }),
    price_adjustment_percent: Type.Optional(Type.Number({ minimum: -100, maximum: 1000 })),
    fixed_prices: Type.Optional(
      Type.Array(
        Type.Object(
          {
            variant_id: Id,
            price: Decimal,
            compare_at_price: Type.Optional(Type.Union([Decimal, Type.Null()])),
          },
          strict,
        ),
        { maxItems: 100_000 },
      ),
    ),
    // As many as a collection holds.
    product_ids: Type.Optional(Type.Union([Type.Array(Id, { maxItems: 100_000 }), Type.Null()])),
  },
  strict,
);
export type MarketInput = Static<typeof MarketInput>;

const CartToken = Type.String({ maxLength: MAX_CART_TOKEN_LENGTH });

export const OrderInput = Type.Object({
  id: Id,
  created_at: Timestamp,
  updated_at: Type.Optional(Timestamp),
  cancelled_at: Type.Optional(Type.Union([Timestamp, Type.Null()])),
  customer: Type.Optional(Type.Union([Type.Object({ id: Id }), Type.Null()])),
  cart_token: Type.Optional(Type.Union([CartToken, Type.Null()], { description: 'its storefront cart' })),
  line_items: Type.Array(
    Type.Object({
      id: Type.Optional(Type.Union([Id, Type.Null()], { description: "the line's id: refunds name it" })),
      product_id: Id,
      variant_id: Type.Optional(Type.Union([Id, Type.Null()])),
      quantity: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
      price: Type.Optional(Decimal),
      properties: Type.Optional(
        Type.Union(
          [
            Type.Array(
              Type.Object({
                name: Type.String({ maxLength: 255 }),
                value: Type.Optional(
                  Type.Union([Type.String({ maxLength: 4096 }), Type.Number(), Type.Boolean(), Type.Null()]),
                ),
              }),
              { maxItems: 100 },
            ),
            Type.Null(),
          ],
          { description: 'line-item properties; _rebound_source attributes the line' },
        ),
      ),
    }),
    { maxItems: 10_000 },
  ),
  refunds: Type.Optional(
    Type.Union(
      [
        Type.Array(
          Type.Object({
            refund_line_items: Type.Optional(
              Type.Array(
                Type.Object({
                  line_item_id: Id,
                  quantity: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
                }),
                { maxItems: 10_000 },
              ),
            ),
          }),
          { maxItems: 1000 },
        ),
        Type.Null(),
      ],
      { description: 'refunded quantities per line id: taken back from attribution' },
    ),
  ),
}); // a subset of the platform's order: its other fields are ignored on purpose
export type OrderInput = Static<typeof OrderInput>;
