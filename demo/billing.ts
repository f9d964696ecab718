import type { DemoData } from './generate.js';
import { Random, deriveSeed } from './random.js';

const REASONS = ['too much product', 'price', 'moving abroad', 'trying something else', 'delivery was late', null];

/**
 * Subscription customers for the demo: most cancelled, a few still active, and every one of them
 * with at least one cancelled subscription, so a reactivation link always has something to offer.
 */
export function generateDemoBilling(data: DemoData, options: { now: Date; seed?: number; customers?: number }) {
  const rng = new Random(deriveSeed(options.seed ?? 42, 7));
  const day = (offset: number) => new Date(options.now.getTime() + offset * 86_400_000).toISOString().slice(0, 19);
  const subscribable = data.products.filter((p) => p.status !== 'draft' && p.published_at !== null).slice(0, 120);
  const customers = [];
  const addresses = [];
  const subscriptions = [];
  const charges = [];
  for (let i = 0; i < (options.customers ?? 40); i++) {
    const id = 80_000 + i;
    const storefront = data.customers[i % data.customers.length]!;
    const active = rng.chance(0.2);
    customers.push({
      id,
      email: storefront.email ?? `subscriber${i}@example.com`,
      first_name: ['Ada', 'Grace', 'Linus', 'Alan', 'Edsger', 'Barbara'][i % 6]!,
      last_name: 'Example',
      shop_customer_id: String(storefront.id),
      status: active ? 'ACTIVE' : 'INACTIVE',
      has_valid_payment_method: i % 9 !== 4,
      ...(i % 9 === 4 ? { reason_payment_method_not_valid: 'card expired' } : {}),
      created_at: day(-400 + i),
      updated_at: day(-30),
    });
    addresses.push({
      id: 90_000 + i,
      customer_id: id,
      address1: `${10 + i} Demo Street`,
      city: 'Springfield',
      zip: String(10_000 + i),
      country_code: 'US',
    });
    // Every subscriber is a reactivation candidate: an active one also has a subscription they cancelled.
    const drawn = rng.int(1, 3);
    for (let s = 0, n = active ? Math.max(2, drawn) : drawn; s < n; s++) {
      const product = s < drawn ? rng.pick(subscribable) : subscribable[i % subscribable.length]!;
      const variant = product.variants[0]!;
      const cancelled = !active || s > 0;
      subscriptions.push({
        id: 100_000 + i * 10 + s,
        customer_id: id,
        address_id: 90_000 + i,
        shop_product_id: product.id,
        shop_variant_id: variant.id,
        status: cancelled ? 'CANCELLED' : 'ACTIVE',
        price: Number(variant.price),
        quantity: rng.int(1, 3),
        product_title: product.title,
        order_interval_frequency: String(rng.pick([1, 2, 4])),
        order_interval_unit: rng.pick(['week', 'month', 'month'] as const),
        cancelled_at: cancelled ? day(-rng.int(5, 200)) : null,
        cancellation_reason: cancelled ? rng.pick(REASONS) : null,
        next_charge_scheduled_at: cancelled ? null : `${day(rng.int(3, 25)).slice(0, 10)}T00:00:00`,
        updated_at: day(-rng.int(1, 5)),
      });
    }
    if (active || i === 0)
      charges.push({
        id: 110_000 + i,
        address_id: 90_000 + i,
        customer_id: id,
        status: 'QUEUED',
        scheduled_at: `${day(rng.int(3, 25)).slice(0, 10)}T00:00:00`,
      });
  }
  return {
    customers,
    addresses,
    subscriptions,
    charges,
    campaign: { name: 'Winter win-back', discount_code: 'WELCOMEBACK15' },
  };
}
