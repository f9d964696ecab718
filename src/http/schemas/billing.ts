import { Type } from '@sinclair/typebox';
import { ErrorCodeSchema } from './errors.js';

/** The public billing answers (docs/billing.md), in the billing platform's shapes. */
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

export const BillingCustomerSchema = Type.Object({
  id: Type.Integer(),
  hash: Type.String(),
  shop_customer_id: Type.String(),
  email: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  first_charge_processed_at: Nullable(Type.String()),
  first_name: Type.String(),
  last_name: Type.String(),
  billing_address1: Type.String(),
  billing_address2: Type.String(),
  billing_zip: Type.String(),
  billing_city: Type.String(),
  billing_company: Type.String(),
  billing_province: Type.String(),
  billing_country: Type.String(),
  billing_phone: Type.String(),
  processor_type: Type.String(),
  status: Type.String(),
  has_valid_payment_method: Type.Boolean(),
  reason_payment_method_not_valid: Nullable(Type.String()),
  has_card_error_in_dunning: Type.Boolean(),
  number_active_subscriptions: Type.Integer(),
  number_subscriptions: Type.Integer(),
});

const subscriptionFields = {
  id: Type.Integer(),
  address_id: Type.Integer(),
  customer_id: Type.Integer(),
  billing_product_id: Type.Integer(),
  shop_product_id: Type.Integer(),
  shop_variant_id: Type.Integer(),
  status: Type.String(),
  cancellation_reason: Nullable(Type.String()),
  cancellation_reason_comments: Nullable(Type.String()),
  cancelled_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
  next_charge_scheduled_at: Nullable(Type.String()),
  charge_interval_frequency: Type.String(),
  order_interval_frequency: Type.String(),
  order_interval_unit: Type.String(),
  order_day_of_month: NullableInteger,
  order_day_of_week: NullableInteger,
  expire_after_specific_number_of_charges: NullableInteger,
  has_queued_charges: Type.Integer({ description: '0 or 1, as the platform answers it' }),
  max_retries_reached: Type.Integer({ description: '0 or 1' }),
  is_skippable: Type.Boolean(),
  is_swappable: Type.Boolean(),
  price: Type.Number(),
  quantity: Type.Integer(),
  product_title: Type.String(),
  variant_title: Type.String(),
  sku: Nullable(Type.String()),
  sku_override: Type.Boolean(),
  properties: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
};

/** `GET /api/v1/billing/reactivate`. */
export const ReactivationContextAnswer = Type.Object({
  data: Type.Object({
    service_reactivate_all_link: Type.String({ description: 'signed link reactivating every chosen subscription' }),
    billing_customer: BillingCustomerSchema,
    billing_subscriptions: Type.Array(
      Type.Object({
        ...subscriptionFields,
        service_reactivate_link: Type.String({ description: 'signed link reactivating this subscription' }),
        shop_product: Type.Union([Type.Ref('Product'), Type.Null()], {
          description: 'the catalog product; null when the catalog does not hold it',
        }),
        shop_variant: Type.Union([Type.Ref('Variant'), Type.Null()]),
      }),
    ),
  }),
});

export const ChargeSchema = Type.Object({
  id: Type.Integer(),
  address_id: Type.Integer(),
  customer_id: Type.Integer(),
  status: Type.String(),
  scheduled_at: Type.String(),
  processed_at: Nullable(Type.String()),
  total_price: Type.String(),
  updated_at: Type.String(),
});

const OnetimeSchema = Type.Object({
  id: Type.Integer(),
  address_id: Type.Integer(),
  customer_id: Type.Integer(),
  shop_product_id: Type.Integer(),
  shop_variant_id: Type.Integer(),
  quantity: Type.Integer(),
  price: Type.String(),
  product_title: Type.String(),
  variant_title: Type.String(),
  next_charge_scheduled_at: Type.String(),
  status: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  // Absent from purchases stored before widgets were kept, which an Idempotency-Key may replay.
  properties: Type.Optional(Type.Array(Type.Object({ name: Type.String(), value: Type.String() }))),
});

const OrderSchema = Type.Object({
  id: Type.Integer(),
  charge_id: Type.Integer(),
  customer_id: Type.Integer(),
  created_at: Type.String(),
  line_items: Type.Array(
    Type.Object({
      shop_product_id: Type.Integer(),
      shop_variant_id: Type.Integer(),
      quantity: Type.Integer(),
      price: Type.String(),
      title: Type.String(),
    }),
  ),
});

/** `POST /api/v1/billing/onetime`, 201. */
export const OnetimeCreated = Type.Object({
  data: Type.Object({
    onetime: OnetimeSchema,
    charge: Type.Union([ChargeSchema, Type.Null()], { description: 'with charge_now=yes: the charge made' }),
    order: Type.Union([OrderSchema, Type.Null()], { description: 'with charge_now=yes: the order the charge created' }),
  }),
});

/** `POST /api/v1/billing/onetime`, 402: the card was refused; the charge is recorded as ERROR. */
export const PaymentFailed = Type.Object({ error: Type.String(), code: ErrorCodeSchema, charge: ChargeSchema });

/** `POST /api/v1/billing/subscribe`. */
export const SubscriptionCreated = Type.Object({ data: Type.Object(subscriptionFields) });
