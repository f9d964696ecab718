import { MONEY_PATTERN } from '../catalog/money.js';
import { DisplayName } from './name.js';
import { Type, type Static } from '@sinclair/typebox';

/** Admin inputs of the billing ledger (docs/api.md, "Admin API"): the public API's shapes, without generated links. */
const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const Frequency = Type.String({
  pattern: '^\\d{1,3}$',
  patternMessage: 'must be a whole number of up to three digits, such as "1"',
});
const Stamp = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?)?$',
  patternMessage: 'must be a date and time without an offset (UTC), such as 2026-11-29T10:00:00',
  format: 'real-timestamp',
  description: 'timestamp without offset (UTC)',
});
const OptText = Type.Optional(Type.String({ maxLength: 1000 }));
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
const strict = { additionalProperties: false } as const;

export const BillingCustomerInput = Type.Object(
  {
    id: Id,
    hash: OptText,
    shop_customer_id: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Integer()])),
    email: Type.String({ maxLength: 320 }),
    created_at: Type.Optional(Stamp),
    updated_at: Type.Optional(Stamp),
    first_charge_processed_at: Nullable(Stamp),
    first_name: OptText,
    last_name: OptText,
    billing_address1: OptText,
    billing_address2: OptText,
    billing_zip: OptText,
    billing_city: OptText,
    billing_company: OptText,
    billing_province: OptText,
    billing_country: OptText,
    billing_phone: OptText,
    processor_type: OptText,
    status: Type.Optional(Type.String({ maxLength: 64 })),
    has_valid_payment_method: Type.Optional(Type.Boolean()),
    reason_payment_method_not_valid: Nullable(Type.String({ maxLength: 1000 })),
    has_card_error_in_dunning: Type.Optional(Type.Boolean()),
    number_active_subscriptions: Type.Optional(Type.Integer({ minimum: 0 })),
    number_subscriptions: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  strict,
);
export type BillingCustomerInput = Static<typeof BillingCustomerInput>;

export const BillingAddressInput = Type.Object(
  {
    id: Id,
    customer_id: Id,
    address1: Type.String({ maxLength: 500 }),
    city: Type.String({ maxLength: 200 }),
    zip: Type.String({ maxLength: 40 }),
    country_code: Type.String({
      pattern: '^[A-Za-z]{2}$',
      patternMessage: 'must be a two-letter country code such as US',
    }),
    discount_code: Nullable(Type.String({ maxLength: 100 })),
    updated_at: Type.Optional(Stamp),
  },
  strict,
);
export type BillingAddressInput = Static<typeof BillingAddressInput>;

export const BillingSubscriptionInput = Type.Object(
  {
    id: Id,
    address_id: Id,
    customer_id: Id,
    billing_product_id: Type.Optional(Id),
    shop_product_id: Id,
    shop_variant_id: Id,
    status: Type.String({ minLength: 1, maxLength: 64 }),
    cancellation_reason: Nullable(Type.String({ maxLength: 1000 })),
    cancellation_reason_comments: Nullable(Type.String({ maxLength: 4096 })),
    cancelled_at: Nullable(Stamp),
    created_at: Type.Optional(Stamp),
    updated_at: Type.Optional(Stamp),
    next_charge_scheduled_at: Nullable(Stamp),
    charge_interval_frequency: Type.Optional(Frequency),
    order_interval_frequency: Frequency,
    order_interval_unit: Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')]),
    order_day_of_month: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 31 }), Type.Null()])),
    order_day_of_week: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 6 }), Type.Null()])),
    expire_after_specific_number_of_charges: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    has_queued_charges: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
    max_retries_reached: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
    is_skippable: Type.Optional(Type.Boolean()),
    is_swappable: Type.Optional(Type.Boolean()),
    price: Type.Number({ minimum: 0, maximum: 1_000_000_000 }),
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    product_title: Type.String({ maxLength: 255 }),
    variant_title: Type.Optional(Type.String({ maxLength: 255 })),
    sku: Nullable(Type.String({ maxLength: 255 })),
    sku_override: Type.Optional(Type.Boolean()),
    // The platform's bounds of a line's properties, as an order line's.
    properties: Type.Optional(
      Type.Array(
        Type.Object({ name: Type.String({ maxLength: 255 }), value: Type.String({ maxLength: 4096 }) }, strict),
        {
          maxItems: 100,
        },
      ),
    ),
  },
  strict,
);
export type BillingSubscriptionInput = Static<typeof BillingSubscriptionInput>;

export const BillingChargeInput = Type.Object(
  {
    id: Id,
    address_id: Id,
    customer_id: Id,
    status: Type.String({ minLength: 1, maxLength: 64 }),
    scheduled_at: Stamp,
    processed_at: Nullable(Stamp),
    total_price: Type.Optional(
      Type.String({ pattern: MONEY_PATTERN, patternMessage: 'must be a decimal amount such as "19.99"' }),
    ),
    updated_at: Type.Optional(Stamp),
  },
  strict,
);
export type BillingChargeInput = Static<typeof BillingChargeInput>;

const MaxClaims = Type.Integer({
  minimum: 1,
  maximum: 1000,
  description: "reactivations one billing customer may make through this campaign's live links (default 1)",
});

/** What a link's `billing_discount_code` takes: the campaign's code goes into its links. */
const CampaignDiscountCode = Nullable(
  Type.String({
    pattern: '^[A-Za-z0-9_-]{1,100}$',
    patternMessage: "may hold only letters, digits, '-' and '_' (at most 100)",
    description: "letters, digits, '-' or '_' (at most 100): placed in the campaign's links as billing_discount_code",
  }),
);

export const CampaignInput = Type.Object(
  {
    name: DisplayName(),
    discount_code: CampaignDiscountCode,
    max_claims_per_customer: Type.Optional(MaxClaims),
  },
  strict,
);

export const CampaignPatchInput = Type.Object(
  {
    name: Type.Optional(DisplayName()),
    discount_code: CampaignDiscountCode,
    max_claims_per_customer: Type.Optional(MaxClaims),
  },
  strict,
);
