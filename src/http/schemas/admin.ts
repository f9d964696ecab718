import { type TSchema, Type } from '@sinclair/typebox';
import { AdminProductSchema } from './product.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const Whole = Type.Optional(Type.Integer());
const Days = Type.Optional(Type.Number());

/** The settings a shop has set; absent ones take the defaults of docs/lists.md. */
export const ShopSettingsSchema = Type.Object({
  trending_window_days: Days,
  trending_half_life_days: Days,
  trending_counts: Type.Optional(Type.Union([Type.Literal('orders'), Type.Literal('units')])),
  recommended_similarity: Type.Optional(
    Type.Union([Type.Literal('weighted'), Type.Literal('count'), Type.Literal('jaccard'), Type.Literal('lift')]),
  ),
  recommended_support_threshold: Whole,
  recommended_basis: Type.Optional(Type.Union([Type.Literal('customer'), Type.Literal('order')])),
  for_you_include_purchased: Type.Optional(Type.Boolean()),
  affinity_half_life_days: Days,
  for_you_similarity: Type.Optional(Type.Number()),
  for_you_content: Type.Optional(Type.Number()),
  for_you_popularity: Type.Optional(Type.Number()),
  reactivate_on_get: Type.Optional(Type.Boolean()),
  rate_limit_public_per_minute: Whole,
  rate_limit_private_per_minute: Whole,
  require_customer_signature: Type.Optional(Type.Boolean()),
  attribution_window_hours: Type.Optional(Type.Number()),
  platform_order_days: Whole,
  platform_reconcile_minutes: Whole,
  event_retention_days: Whole,
  cart_subtotal_unit: Type.Optional(Type.Union([Type.Literal('major'), Type.Literal('minor')])),
});

/** A shop as the admin API shows it (`publicShop`: no secrets, whether the webhook secrets are set). */
export const PublicShopSchema = Type.Object({
  id: Type.Integer(),
  handle: Type.String(),
  name: Type.String(),
  timezone: Type.String(),
  currency: Type.String(),
  scopes: Type.Array(Type.String()),
  public_url: Nullable(Type.String()),
  settings: ShopSettingsSchema,
  created_at: Type.String(),
  updated_at: Type.String(),
  webhook_secret_set: Type.Boolean(),
  billing_webhook_secret_set: Type.Boolean(),
});

export const ShopAnswer = Type.Object({ shop: PublicShopSchema });
export const ShopList = Type.Object({ data: Type.Array(PublicShopSchema) });

/** Keys in full: shown only when issued. */
export const IssuedKeysSchema = Type.Object({ public: Type.String(), private: Type.String() });

export const KeySchema = Type.Object({
  kind: Type.Union([Type.Literal('public'), Type.Literal('private')]),
  key_prefix: Type.String(),
  created_at: Type.String(),
  expires_at: Nullable(Type.String()),
  state: Type.Union([Type.Literal('current'), Type.Literal('grace'), Type.Literal('ended')]),
});

/** What a bulk upsert answers. */
export const Upserted = Type.Object({ upserted: Type.Integer({ description: 'rows written' }) });
/** Customers and orders: rows about a customer the shop erased after the change they describe (docs/api.md). */
export const UpsertedAboutCustomers = Type.Object({
  upserted: Type.Integer({ description: 'rows written' }),
  erased: Type.Integer({
    description:
      'rows about a customer erased after the change they describe: customers not written, orders written unlinked',
  }),
});
export const InventoryUpdated = Type.Object({
  updated: Type.Integer({ description: 'variants whose quantity was set' }),
});

export const ProductPage = Type.Object({
  data: Type.Array(AdminProductSchema),
  page: Type.Integer(),
  total: Type.Integer({ description: 'products matching, all pages together' }),
});

export const CollectionList = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      title: Type.String(),
      handle: Type.String(),
      updated_at: Type.String(),
      products: Type.Array(Type.Object({ product_id: Type.Integer(), position: Type.Integer() })),
    }),
  ),
  total: Type.Integer({ description: 'collections of the shop, all pages together' }),
  next: Nullable(Type.Integer({ description: 'the `after` of the next page; null on the last' })),
});

export const MarketList = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      position: Type.Integer(),
      active: Type.Boolean(),
      countries: Type.Array(Type.String({ description: 'ISO 3166-1 alpha-2, upper case' })),
      currency: Type.String(),
      price_adjustment_percent: Type.Number(),
      fixed_prices: Type.Array(
        Type.Object({ variant_id: Type.Integer(), price: Type.String(), compare_at_price: Nullable(Type.String()) }),
      ),
      product_ids: Type.Union([Type.Array(Type.Integer()), Type.Null()], { description: 'null: the whole catalog' }),
    }),
  ),
});

export const EventList = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      shop_id: Type.Integer(),
      uuid: Nullable(Type.String()),
      customer_id: Type.Union([Type.Integer(), Type.Null()]),
      subject: Type.Literal('user'),
      verb: Type.Union([Type.Literal('viewed'), Type.Literal('added'), Type.Literal('removed')]),
      noun: Type.Literal('product'),
      handle: Nullable(Type.String()),
      subject_email: Nullable(Type.String()),
      theme_id: Nullable(Type.String()),
      created_at: Type.String({ format: 'date-time' }),
    }),
    { description: 'newest first' },
  ),
});

const Counters = { links_generated: Type.Integer(), pages_opened: Type.Integer(), reactivations: Type.Integer() };

export const CampaignStats = Type.Object({
  data: Type.Object({
    ...Counters,
    by_tk: Type.Record(Type.String(), Type.Object(Counters), {
      description: 'the same counters per tracking key (tk)',
    }),
  }),
});
