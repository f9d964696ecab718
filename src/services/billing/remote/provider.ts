import {
  addressFromRemote,
  chargeFromRemote,
  customerFromRemote,
  subscriptionFromRemote,
  type RemoteAddress,
  type RemoteCharge,
  type RemoteCustomer,
  type RemoteSubscription,
} from '../../../domain/billing/remote.js';
import type { BillingSubscription } from '../../../domain/billing/types.js';
import { AppError, BadGatewayError } from '../../../domain/errors.js';
import type { IdempotencyStore } from '../../../store/kysely/idempotency.js';
import type { BillingProvider, ReactivationResult } from '../provider.js';
import type { RemoteCallPolicy, RemoteClient } from './client.js';
import { createKeyedWrites } from './keyed-write.js';
import { createRemoteOnetimes } from './onetime.js';
import { createRemoteSubscriptions } from './subscribe.js';
import type { ProviderReadCache } from './read-cache.js';

/** Pages of subscriptions read for one customer at most (250 each): a bound, not a limit customers reach. */
const MAX_PAGES = 4;
/** Subscriptions asked for a page: the provider's own most. */
const PAGE_SIZE = 250;

export interface RemoteProviderDeps {
  client: RemoteClient;
  cache: ProviderReadCache;
  store: IdempotencyStore;
  policy: RemoteCallPolicy;
  log?: { warn(obj: object, msg: string): void };
}

/**
 * A shop's remote billing provider, spoken to in its documented REST API (version 2021-11) and
 * mapped to the public API's shapes by `domain/billing/remote.ts`. Reads go through a 30-second cache.
 */
export function remoteProvider(deps: RemoteProviderDeps): BillingProvider {
  const { client, cache } = deps;
  const keyedWrite = createKeyedWrites(deps);

  async function listSubscriptions(customerId: number): Promise<BillingSubscription[]> {
    // By id: a provider answering the same cursor again listed each subscription once a page.
    const found = new Map<unknown, RemoteSubscription>();
    const cursors = new Set<string>();
    let path = `/subscriptions?customer_id=${customerId}&limit=${PAGE_SIZE}`;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await client.get<{ subscriptions?: RemoteSubscription[]; next_cursor?: string | null }>(path);
      const listed = answer?.subscriptions ?? [];
      // More than asked for is not the documented API: 22,000 of them signed a link each on the shared thread.
      if (listed.length > PAGE_SIZE)
        throw new TypeError(`a page of ${listed.length} subscriptions, asked for ${PAGE_SIZE}`);
      for (const subscription of listed) found.set(subscription.id, subscription);
      const cursor = answer?.next_cursor;
      if (!cursor || cursors.has(cursor)) break;
      cursors.add(cursor);
      path = `/subscriptions?cursor=${encodeURIComponent(cursor)}&limit=${PAGE_SIZE}`;
    }
    return [...found.values()]
      .filter((s) => s.customer_id === customerId)
      .map(subscriptionFromRemote)
      .sort((a, b) => a.id - b.id);
  }

  async function activate(id: number): Promise<BillingSubscription> {
    // Activation shows on the subscription itself: active now means a try went through.
    const activeNow = async () => {
      const current = await client.peek<{ subscription: RemoteSubscription }>(`/subscriptions/${id}`);
      return current && current.subscription.status?.toLowerCase() === 'active' ? current : undefined;
    };
    try {
      const answer = await client.write<{ subscription: RemoteSubscription }>(
        'POST',
        `/subscriptions/${id}/activate`,
        undefined,
        { lookup: activeNow },
      );
      return subscriptionFromRemote(answer.subscription);
    } catch (error) {
      // A 2xx whose body cannot be read still activated: the subscription is read instead, so the
      // reactivation is not taken for a failure (its claim given back, its discount never applied).
      if (!unreadable(error)) throw error;
      const current = await activeNow();
      if (!current) throw error;
      return subscriptionFromRemote(current.subscription);
    }
  }

  async function applyDiscount(
    customerId: number,
    addressId: number,
    code: string,
  ): Promise<ReactivationResult['discount']> {
    const before = await client.get<{ address: RemoteAddress }>(`/addresses/${addressId}`);
    if (!before || before.address.customer_id !== customerId)
      return { applied: false, reason: "the subscription's address is not on file" };
    const known = new Set((before.address.discounts ?? []).map((d) => d.id));
    await client.write<{ address: RemoteAddress }>(
      'POST',
      `/addresses/${addressId}/apply_discount`,
      { discount_code: code },
      {
        // A discount the address did not have before means the lost try went through.
        lookup: async () => {
          const current = await client.peek<{ address: RemoteAddress }>(`/addresses/${addressId}`);
          return current && (current.address.discounts ?? []).some((d) => !known.has(d.id)) ? current : undefined;
        },
      },
    );
    return { applied: true };
  }

  return readable(deps, {
    kind: 'remote',
    customer: (shopId, id) =>
      cache.read(shopId, 'customer', id, async () => {
        const answer = await client.get<{ customer: RemoteCustomer }>(`/customers/${id}`);
        return answer ? customerFromRemote(answer.customer) : null;
      }),
    async subscriptions(shopId, customerId) {
      return (await cache.read(shopId, 'subscriptions', customerId, () => listSubscriptions(customerId))) ?? [];
    },
    address: (shopId, id) =>
      cache.read(shopId, 'address', id, async () => {
        const answer = await client.get<{ address: RemoteAddress }>(`/addresses/${id}`);
        return answer ? addressFromRemote(answer.address) : null;
      }),
    charge: (shopId, id) =>
      cache.read(shopId, 'charge', id, async () => {
        const answer = await client.get<{ charge: RemoteCharge }>(`/charges/${id}`);
        return answer ? chargeFromRemote(answer.charge) : null;
      }),
    async nextQueuedCharge(_shopId, addressId, fromDate) {
      const answer = await client.get<{ charges?: RemoteCharge[] }>(
        `/charges?address_id=${addressId}&status=queued&sort_by=scheduled_at-asc&limit=250`,
      );
      const charges = (answer?.charges ?? [])
        .map(chargeFromRemote)
        .filter((c) => c.address_id === addressId && c.status === 'QUEUED' && c.scheduled_at.slice(0, 10) >= fromDate);
      return charges.sort((a, b) => a.scheduled_at.localeCompare(b.scheduled_at) || a.id - b.id)[0] ?? null;
    },

    async reactivate(shopId, plan) {
      const subscriptions: BillingSubscription[] = [];
      try {
        // One at a time, in order: a failure part-way leaves the rest cancelled, and a repeat of the
        // link activates only those (the active ones are skipped by the service).
        for (const sub of plan.subscriptions) subscriptions.push(await activate(sub.id));
      } finally {
        cache.drop(shopId, 'subscriptions', plan.customerId);
        cache.drop(shopId, 'customer', plan.customerId);
      }
      const first = plan.subscriptions[0];
      let discount: ReactivationResult['discount'] = null;
      if (plan.discountCode && first) {
        try {
          discount = await applyDiscount(plan.customerId, first.address_id, plan.discountCode);
        } catch (error) {
          // The subscriptions are active already: the page says the code is missing rather than fail the reactivation.
          deps.log?.warn({ err: error, address: first.address_id }, 'discount not applied after a reactivation');
          discount = {
            applied: false,
            reason: error instanceof AppError ? error.message : 'the billing provider did not answer',
          };
        } finally {
          cache.drop(shopId, 'address', first.address_id);
        }
      }
      return { subscriptions, discount };
    },

    createOnetime: createRemoteOnetimes(deps, keyedWrite),
    createSubscription: createRemoteSubscriptions(deps, keyedWrite),
  });
}

/** What reading an answer of a shape the provider does not document throws. */
const readingFailed = (error: unknown) => error instanceof TypeError || error instanceof RangeError;

/** An answer that is not JSON, or JSON of a shape reading it fails on. */
const unreadable = (error: unknown) =>
  readingFailed(error) || (error instanceof BadGatewayError && error.code === 'upstream_invalid');

/**
 * Every call of the provider, with an answer Rebound cannot read (a null customer, an object where
 * a list belongs, a list holding a null) made a 502 `upstream_invalid` naming the provider: read
 * as it is, such an answer threw a TypeError, a 500 that named nothing. Each is logged.
 */
function readable(deps: RemoteProviderDeps, provider: BillingProvider): BillingProvider {
  const guarded = { ...provider } as Record<string, unknown>;
  for (const [name, value] of Object.entries(provider)) {
    if (typeof value !== 'function') continue;
    guarded[name] = async (...args: unknown[]) => {
      try {
        return await (value as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        if (!readingFailed(error)) throw error;
        deps.log?.warn({ err: error, call: name }, 'billing provider answer not readable');
        throw new BadGatewayError('The billing provider answered something Rebound cannot read.', 'upstream_invalid');
      }
    };
  }
  return guarded as unknown as BillingProvider;
}
