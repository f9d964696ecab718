import { describe, expect, it } from 'vitest';
import {
  addressFromRemote,
  chargeFromRemote,
  chargeHoldsOnetime,
  customerFromRemote,
  externalId,
  onetimeFromRemote,
  orderFromRemoteCharge,
  remoteTimestamp,
  subscriptionFromRemote,
} from '../../../src/domain/billing/remote.js';
import { BadGatewayError } from '../../../src/domain/errors.js';

// Payloads shaped as the provider documents its 2021-11 objects (ids and values made up).
const subscription = {
  id: 389002912,
  address_id: 129447786,
  customer_id: 36885812,
  analytics_data: { utm_params: [] },
  cancellation_reason: 'Other reason',
  cancellation_reason_comments: null,
  cancelled_at: '2023-09-12T16:34:05+00:00',
  charge_interval_frequency: 1,
  created_at: '2023-07-25T09:50:55+00:00',
  expire_after_specific_number_of_charges: null,
  external_product_id: { ecommerce: '4342501048418' },
  external_variant_id: { ecommerce: '39290394706018' },
  has_queued_charges: false,
  is_prepaid: false,
  is_skippable: true,
  is_swappable: false,
  max_retries_reached: false,
  next_charge_scheduled_at: null,
  order_day_of_month: null,
  order_day_of_week: null,
  order_interval_frequency: 1,
  order_interval_unit: 'month',
  presentment_currency: 'USD',
  price: '22.00',
  product_title: 'Unseen Sunscreen SPF 40',
  properties: [{ name: '_rechargeDiscountType', value: 'percentage' }],
  quantity: 1,
  sku: '9227',
  sku_override: false,
  status: 'cancelled',
  updated_at: '2023-09-12T16:34:05+00:00',
  variant_title: '0.68 oz.',
};

describe("2021-11 objects mapped to the seed's shapes", () => {
  it('maps a subscription: platform ids, upper-case status, offset-free timestamps, price as a number', () => {
    expect(subscriptionFromRemote(subscription)).toEqual({
      id: 389002912,
      address_id: 129447786,
      customer_id: 36885812,
      billing_product_id: 4342501048418,
      shop_product_id: 4342501048418,
      shop_variant_id: 39290394706018,
      status: 'CANCELLED',
      cancellation_reason: 'Other reason',
      cancellation_reason_comments: null,
      cancelled_at: '2023-09-12T16:34:05',
      created_at: '2023-07-25T09:50:55',
      updated_at: '2023-09-12T16:34:05',
      next_charge_scheduled_at: null,
      charge_interval_frequency: '1',
      order_interval_frequency: '1',
      order_interval_unit: 'month',
      order_day_of_month: null,
      order_day_of_week: null,
      expire_after_specific_number_of_charges: null,
      has_queued_charges: 0,
      max_retries_reached: 0,
      is_skippable: true,
      is_swappable: false,
      price: 22,
      quantity: 1,
      product_title: 'Unseen Sunscreen SPF 40',
      variant_title: '0.68 oz.',
      sku: '9227',
      sku_override: false,
      properties: [{ name: '_rechargeDiscountType', value: 'percentage' }],
    });
    expect(
      subscriptionFromRemote({ ...subscription, status: 'active', next_charge_scheduled_at: '2026-12-01' })
        .next_charge_scheduled_at,
    ).toBe('2026-12-01T00:00:00');
  });

  it(
    'maps a customer: the platform id as shop_customer_id, status ' + 'from the active count, dunning as card error',
    () => {
      const customer = customerFromRemote({
        id: 36885812,
        hash: '143ff3c9bc5f1c4a',
        external_customer_id: { ecommerce: '5531383611563' },
        email: 'ada@example.com',
        first_name: 'Ada',
        last_name: 'Lovelace',
        phone: '+15555550100',
        created_at: '2023-07-25T09:50:55+00:00',
        updated_at: '2023-09-12T16:34:05+00:00',
        first_charge_processed_at: '2023-07-25T09:51:02+00:00',
        has_valid_payment_method: false,
        has_payment_method_in_dunning: true,
        subscriptions_active_count: 0,
        subscriptions_total_count: 2,
      });
      expect(customer).toMatchObject({
        id: 36885812,
        hash: '143ff3c9bc5f1c4a',
        shop_customer_id: '5531383611563',
        status: 'INACTIVE',
        has_valid_payment_method: false,
        has_card_error_in_dunning: true,
        number_active_subscriptions: 0,
        number_subscriptions: 2,
        first_charge_processed_at: '2023-07-25T09:51:02',
        billing_phone: '+15555550100',
        billing_address1: '',
      });
      expect(customerFromRemote({ id: 1, subscriptions_active_count: 3 }).status).toBe('ACTIVE');
    },
  );

  it('maps addresses, charges and one-time purchases', () => {
    expect(
      addressFromRemote({
        id: 7,
        customer_id: 3,
        address1: '1 Main St',
        city: 'Springfield',
        zip: '12345',
        country_code: 'us',
        discounts: [{ id: 99 }],
        updated_at: '2026-01-01T00:00:00+00:00',
      }),
    ).toEqual({
      id: 7,
      customer_id: 3,
      address1: '1 Main St',
      city: 'Springfield',
      zip: '12345',
      country_code: 'US',
      discount_code: null,
      updated_at: '2026-01-01T00:00:00',
    });
    const charge = {
      id: 5,
      address_id: 7,
      customer: { id: 3, email: 'a@b.c', external_customer_id: { ecommerce: '55' }, hash: 'h' },
      status: 'success',
      scheduled_at: '2026-11-23',
      processed_at: '2026-11-23T12:00:01+00:00',
      total_price: '25.5',
      updated_at: '2026-11-23T12:00:01+00:00',
      external_order_id: { ecommerce: '4511111111' },
      line_items: [
        {
          purchase_item_id: 8,
          purchase_item_type: 'onetime',
          external_product_id: { ecommerce: '2' },
          external_variant_id: { ecommerce: '21' },
          quantity: 3,
          unit_price: '8.50',
          title: 'Product 2',
        },
      ],
    };
    expect(chargeFromRemote(charge)).toEqual({
      id: 5,
      address_id: 7,
      customer_id: 3,
      status: 'SUCCESS',
      scheduled_at: '2026-11-23T00:00:00',
      processed_at: '2026-11-23T12:00:01',
      total_price: '25.50',
      updated_at: '2026-11-23T12:00:01',
    });
    expect(orderFromRemoteCharge(charge)).toEqual({
      id: 4511111111,
      charge_id: 5,
      customer_id: 3,
      created_at: '2026-11-23T12:00:01',
      line_items: [{ shop_product_id: 2, shop_variant_id: 21, quantity: 3, price: '8.50', title: 'Product 2' }],
    });
    expect(chargeHoldsOnetime(charge, 8)).toBe(true);
    expect(
      chargeHoldsOnetime(
        { ...charge, line_items: [{ ...charge.line_items[0]!, purchase_item_type: 'subscription' }] },
        8,
      ),
    ).toBe(false);
    expect(
      onetimeFromRemote({
        id: 8,
        address_id: 7,
        customer_id: 3,
        external_product_id: { ecommerce: '2' },
        external_variant_id: { ecommerce: '21' },
        quantity: 3,
        price: '8.5',
        product_title: 'Product 2',
        variant_title: 'Large',
        next_charge_scheduled_at: '2026-12-01',
        is_cancelled: false,
        created_at: '2026-11-23T12:00:00+00:00',
        updated_at: '2026-11-23T12:00:00+00:00',
        properties: [{ name: '_rebound_source', value: 'widget:77' }],
      }),
    ).toEqual({
      id: 8,
      address_id: 7,
      customer_id: 3,
      shop_product_id: 2,
      shop_variant_id: 21,
      quantity: 3,
      price: '8.50',
      product_title: 'Product 2',
      variant_title: 'Large',
      next_charge_scheduled_at: '2026-12-01T00:00:00',
      status: 'ACTIVE',
      created_at: '2026-11-23T12:00:00',
      updated_at: '2026-11-23T12:00:00',
      properties: [{ name: '_rebound_source', value: 'widget:77' }],
    });
  });

  it('reads timestamps with any offset as UTC, and platform ids as digits or GIDs', () => {
    expect(remoteTimestamp('2026-11-23T07:00:00-05:00')).toBe('2026-11-23T12:00:00');
    expect(remoteTimestamp('2026-11-23T07:00:00Z')).toBe('2026-11-23T07:00:00');
    expect(remoteTimestamp('2026-11-23 07:00:00')).toBe('2026-11-23T07:00:00');
    expect(remoteTimestamp('soon')).toBeNull();
    expect(remoteTimestamp(null)).toBeNull();
    expect(externalId({ ecommerce: ' 42 ' })).toBe(42);
    expect(externalId({ ecommerce: 'gid://shopify/Product/42' })).toBe(42);
    expect(externalId(null)).toBe(0);
    expect(externalId({ ecommerce: '' })).toBe(0);
    // An id it gives that is none is a bad answer, not "no product": it was product 0.
    expect(() => externalId({ ecommerce: 'abc' })).toThrow(BadGatewayError);
    expect(() => externalId({ ecommerce: '12345678901234567890' })).toThrow(BadGatewayError);
  });

  it('refuses an object without a usable id as a bad answer of the provider', () => {
    expect(() => subscriptionFromRemote({ ...subscription, id: 'x' as never })).toThrow(BadGatewayError);
    expect(() => chargeFromRemote({ id: 0, address_id: 1 })).toThrow(/charge without a valid id/);
  });
});
