import { OptionalKind, Type, type Static, type TSchema } from '@sinclair/typebox';
import { DisplayName } from './name.js';

/**
 * The scopes Rebound reads: `read_markets` gates `country_code` (docs/api.md, "Markets"). Any other name
 * would be stored and read by nothing, so a misspelt `read_market` is refused rather than kept.
 */
const Scopes = Type.Optional(
  Type.Array(Type.Union([Type.Literal('read_markets')]), {
    description: 'read_markets: country_code and presentment_prices are read (the only scope Rebound reads)',
    maxItems: 10,
  }),
);

/** The admin API's shop documents (docs/api.md, "Admin API"): a new shop, a change, a key to revoke. */
/** A shop's name, shown in the console's header: one of blanks only would show nothing there. */
const ShopName = DisplayName();
const CURRENCY = 'must be a three-letter currency code in capitals, such as USD';

export const NewShopInput = Type.Object(
  {
    handle: Type.String({ description: 'url-safe: lower-case letters, digits and dashes', examples: ['my-shop'] }),
    name: ShopName,
    timezone: Type.Optional(Type.String({ description: 'IANA time zone', examples: ['America/New_York'] })),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', patternMessage: CURRENCY })),
    scopes: Scopes,
    public_url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: false },
);
export type NewShopInput = Static<typeof NewShopInput>;

/** Per-shop tuning; absent keys take the defaults of docs/lists.md. */
export const ShopSettingsInput = Type.Object(
  {
    trending_window_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
    trending_half_life_days: Type.Optional(Type.Number({ minimum: 0.25, maximum: 365 })),
    trending_counts: Type.Optional(
      Type.Union([Type.Literal('orders'), Type.Literal('units')], {
        description: 'what trending sums: orders holding the product (default) or units sold',
      }),
    ),
    recommended_similarity: Type.Optional(
      Type.Union([Type.Literal('weighted'), Type.Literal('count'), Type.Literal('jaccard'), Type.Literal('lift')], {
        description: 'similarity of recommended and for_you; default weighted',
      }),
    ),
    recommended_support_threshold: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        description: 'pairs bought together by fewer users are not neighbours; default 1',
      }),
    ),
    recommended_basis: Type.Optional(
      Type.Union([Type.Literal('customer'), Type.Literal('order')], {
        description: 'a user of the co-occurrence matrix is a customer or one order; default order',
      }),
    ),
    for_you_include_purchased: Type.Optional(
      Type.Boolean({
        description:
          'for_you keeps products the customer already bought; default true (include_purchased=no leaves them out)',
      }),
    ),
    affinity_half_life_days: Type.Optional(
      Type.Number({
        minimum: 0.25,
        maximum: 3650,
        description: "half-life of a purchase in a customer's affinities; default 180",
      }),
    ),
    for_you_similarity: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 10,
        description: "for_you: weight of the purchases' bought-together neighbours; default 0.1",
      }),
    ),
    for_you_content: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 10,
        description: "for_you: weight of the purchases' content neighbours; default 0.1",
      }),
    ),
    for_you_popularity: Type.Optional(
      Type.Number({ minimum: 0, maximum: 10, description: 'for_you: weight of recent popularity; default 0.3' }),
    ),
    reactivate_on_get: Type.Optional(Type.Boolean()),
    rate_limit_public_per_minute: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
    rate_limit_private_per_minute: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
    require_customer_signature: Type.Optional(
      Type.Boolean({ description: 'public requests naming shop_customer_id must carry customer_sig; default false' }),
    ),
    attribution_window_hours: Type.Optional(
      Type.Number({
        minimum: 0.25,
        maximum: 24 * 90,
        description: "how long before an order a customer's click still attributes it; default 24",
      }),
    ),
    platform_order_days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 3650,
        description: 'orders of the last this many days are pulled; default 365',
      }),
    ),
    platform_reconcile_minutes: Type.Optional(
      Type.Integer({ minimum: 5, maximum: 10_080, description: 'minutes between reconciliations; default 60' }),
    ),
    event_retention_days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 3650, description: 'events older than this are deleted daily; default 400' }),
    ),
    cart_subtotal_unit: Type.Optional(
      Type.Union([Type.Literal('major'), Type.Literal('minor')], {
        description:
          'unit of a cart_subtotal sent without a bracketed cart: major (currency unit, the default) or minor (cents)',
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * Settings as a PATCH sends them: merged into the shop's (a setting not named is kept), `null`
 * taking one back to its default. Replacing the whole object instead let a change of one setting
 * switch off `require_customer_signature` without a word.
 */
export const ShopSettingsPatch = Type.Object(
  Object.fromEntries(
    Object.entries(ShopSettingsInput.properties).map(([name, schema]) => {
      const { [OptionalKind]: _optional, ...value } = schema as TSchema & { [OptionalKind]?: string };
      return [name, Type.Optional(Type.Union([value as TSchema, Type.Null()]))];
    }),
  ),
  { additionalProperties: false },
);

/**
 * A webhook signing secret as the platform shows it: blanks at either end are a paste's, never the
 * secret's (deliveries signed with the real one would all be refused).
 */
const WebhookSecret = Type.String({
  minLength: 16,
  maxLength: 500,
  pattern: '^\\S(.*\\S)?$',
  patternMessage: 'must not begin or end with blanks',
});

export const ShopPatchInput = Type.Object(
  {
    name: Type.Optional(ShopName),
    timezone: Type.Optional(Type.String()),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', patternMessage: CURRENCY })),
    scopes: Scopes,
    public_url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    webhook_secret: Type.Optional(Type.Union([WebhookSecret, Type.Null()])),
    billing_webhook_secret: Type.Optional(Type.Union([WebhookSecret, Type.Null()])),
    settings: Type.Optional(ShopSettingsPatch),
  },
  { additionalProperties: false },
);

export const RevokeInput = Type.Object(
  {
    key_prefix: Type.String({
      minLength: 16,
      maxLength: 64,
      pattern: '^rb_(pub|priv)_[A-Za-z0-9_-]+$',
      patternMessage: 'must be an API key, or its first 16 characters or more, beginning rb_pub_ or rb_priv_',
      description:
        'the whole key, or its first 16 characters or more (the prefix the key list shows) naming exactly one live key',
    }),
  },
  { additionalProperties: false },
);
