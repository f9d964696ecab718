import { sourceProperty } from '../../../domain/attribution/source.js';
import { randomUUID } from 'node:crypto';
import { subscriptionFromRemote, type RemoteSubscription } from '../../../domain/billing/remote.js';
import type { BillingSubscription } from '../../../domain/billing/types.js';
import type { BillingProvider, SubscriptionPlan } from '../provider.js';
import { REQUEST_PROPERTY } from './onetime.js';
import type { KeyedWrites, WriteProgress } from './keyed-write.js';
import type { RemoteProviderDeps } from './provider.js';

/**
 * New subscriptions on a remote provider: `POST /subscriptions` (2021-11), tagged with the request
 * that made it so a write whose answer was lost is found instead of made twice.
 */
export function createRemoteSubscriptions(
  deps: RemoteProviderDeps,
  keyedWrite: KeyedWrites,
): BillingProvider['createSubscription'] {
  const { client, cache } = deps;

  async function find(addressId: number, marker: string): Promise<{ subscription: RemoteSubscription } | undefined> {
    const answer = await client.peek<{ subscriptions?: RemoteSubscription[] }>(
      `/subscriptions?address_id=${addressId}&limit=250`,
    );
    const found = (answer?.subscriptions ?? []).find((s) =>
      (s.properties ?? []).some((p) => p.name === REQUEST_PROPERTY && p.value === marker),
    );
    return found ? { subscription: found } : undefined;
  }

  async function run(
    shopId: number,
    plan: SubscriptionPlan,
    marker: string,
    resumed: boolean,
    progress: WriteProgress,
  ): Promise<BillingSubscription> {
    const body = {
      address_id: plan.address.id,
      next_charge_scheduled_at: plan.date,
      quantity: plan.quantity,
      order_interval_unit: plan.orderIntervalUnit,
      order_interval_frequency: plan.orderIntervalFrequency,
      charge_interval_frequency: plan.chargeIntervalFrequency,
      external_product_id: { ecommerce: String(plan.productId) },
      external_variant_id: { ecommerce: String(plan.variantId) },
      properties: [{ name: REQUEST_PROPERTY, value: marker }, ...sourceProperty(plan.source)],
    };
    try {
      const created = await client.write<{ subscription: RemoteSubscription }>('POST', '/subscriptions', body, {
        lookup: () => find(plan.address.id, marker),
        lookupFirst: resumed,
      });
      progress.created = true;
      return subscriptionFromRemote(created.subscription);
    } finally {
      cache.drop(shopId, 'subscriptions', plan.address.customer_id);
    }
  }

  return async (shopId, plan, idempotency) => {
    if (!idempotency)
      return { subscription: await run(shopId, plan, randomUUID(), false, { created: false }), replayed: false };
    const { outcome, replayed } = await keyedWrite(
      shopId,
      idempotency,
      (marker, resumed, progress) => run(shopId, plan, marker, resumed, progress),
      (text) => JSON.parse(text) as BillingSubscription,
    );
    return { subscription: outcome, replayed };
  };
}
