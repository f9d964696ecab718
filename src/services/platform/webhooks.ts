import { gidNumber, toGid } from '../../domain/platform/gid.js';
import { mapOrder } from '../../domain/platform/map.js';
import { ORDER_ONE } from '../../domain/platform/queries.js';
import type { CommerceStore } from '../../store/kysely/commerce.js';
import type { PlatformStore } from '../../store/kysely/platform.js';
import type { CatalogService } from '../catalog.js';
import type { PlatformConnections } from './connection.js';
import type { GraphqlClient, GraphqlPolicy } from './graphql.js';
import type { PrivacyService } from './privacy.js';
import { confirmedGone } from './reconcile.js';
import { upstreamId } from '../../domain/inputs/whole-numbers.js';

/** The platform topics beyond the catalog's: customers, refunds, the app's removal and the mandatory privacy topics. */
export const PLATFORM_TOPICS = [
  'customers/create',
  'customers/update',
  'customers/delete',
  'refunds/create',
  'app/uninstalled',
  'customers/data_request',
  'customers/redact',
  'shop/redact',
] as const;

const GID_TYPE: Record<string, string> = {
  products: 'Product',
  collections: 'Collection',
  customers: 'Customer',
  orders: 'Order',
};

/** The privacy topics: one that failed on our side is tried again (`privacyRetryAt`). */
export const PRIVACY_TOPICS: ReadonlySet<string> = new Set([
  'customers/data_request',
  'customers/redact',
  'shop/redact',
]);

type Payload = Record<string, unknown>;

/** The outcomes of a webhook about a customer erased since the change it describes. */
export const ERASED_SKIPPED = 'skipped: the customer was erased after this change';
export const ERASED_UNLINKED = 'applied without the customer, erased after this change';
/** Tries of a privacy request that failed on our side (a database error), the first included. */
export const PRIVACY_TRIES = 8;

/**
 * When a privacy request that failed on our side after `attempts` earlier retries is tried again: 1, 2,
 * 4 ... 64 minutes on (about two hours in all); null for another topic, or after the last try. The
 * platform was answered 200 when the request was queued and does not send it again.
 */
export function privacyRetryAt(topic: string, attempts: number, now: number): number | null {
  if (!PRIVACY_TOPICS.has(topic) || attempts + 1 >= PRIVACY_TRIES) return null;
  return now + 60_000 * 2 ** attempts;
}

/**
 * A webhook that reads the platform (a refund's order, a deletion's confirmation) tries twice and
 * waits at most 2 s between tries, where a sync tries 8 times and waits up to a minute: the shop's
 * next webhooks wait on it. One that fails is recorded so; the next reconciliation catches up.
 */
const WEBHOOK_CALLS: Partial<GraphqlPolicy> = { tries: 2, deadlineMs: 10_000, maxWaitMs: 2_000, backoffMs: 200 };

/**
 * Applies the storefront webhooks that need the platform connection or the privacy service.
 * `apply` answers the outcome, or null for a topic the catalog's own handling applies;
 * `deleteConfirmed` is asked before any deletion: a connected shop's platform must confirm the
 * resource is gone.
 */
export function createPlatformTopics(deps: {
  store: PlatformStore & CommerceStore;
  connections: PlatformConnections;
  catalogAdmin: CatalogService;
  privacy: PrivacyService;
  uninstalled: (shopId: number) => Promise<void>;
}) {
  async function clientOf(shopId: number): Promise<GraphqlClient | null> {
    const connection = await deps.store.getPlatformConnection(shopId);
    return connection ? deps.connections.clientFor(connection, WEBHOOK_CALLS) : null;
  }

  /** Whether a delete may be applied: always without a connection, else only once the platform says it is gone. */
  async function deleteConfirmed(shopId: number, resource: string, id: number): Promise<boolean> {
    const gql = await clientOf(shopId);
    if (!gql) return true;
    return (await confirmedGone(gql, GID_TYPE[resource]!, [id])).length === 1;
  }

  return { apply, deleteConfirmed };

  async function apply(shopId: number, topic: string, payload: Payload, webhookId: string): Promise<string | null> {
    const [resource, action] = topic.split('/') as [string, string];
    const id = upstreamId(payload.id) ?? Number.NaN;
    switch (topic) {
      case 'customers/data_request':
        return deps.privacy.dataRequest(shopId, payload, webhookId);
      case 'customers/redact':
        return deps.privacy.redact(shopId, payload, webhookId);
      case 'shop/redact':
        return deps.privacy.shopRedact(shopId);
      case 'app/uninstalled':
        await deps.uninstalled(shopId);
        return 'applied';
      case 'customers/create':
      case 'customers/update': {
        const { erased } = await deps.catalogAdmin.upsertCustomers(shopId, [
          {
            id: payload.id,
            email: payload.email ?? null,
            tags: payload.tags ?? [],
            ...(payload.updated_at ? { updated_at: payload.updated_at } : {}),
          },
        ]);
        return erased > 0 ? ERASED_SKIPPED : 'applied';
      }
      case 'refunds/create':
        return refund(shopId, upstreamId(payload.order_id) ?? Number.NaN);
    }
    // Products and collections are deleted by the catalog's handling, which asks `deleteConfirmed` first.
    if (resource === 'customers' && action === 'delete') {
      if (!Number.isSafeInteger(id) || id <= 0) return 'error: payload has no id';
      if (!(await deleteConfirmed(shopId, resource, id))) return 'skipped: the platform still has it';
      return (await deps.store.deleteCustomer(shopId, id)) ? 'applied' : 'skipped: unknown customer';
    }
    return null;
  }

  /**
   * A refund: the order is read again from the platform with all
   * its refunds, so attribution takes the refunded lines back.
   */
  async function refund(shopId: number, orderId: number): Promise<string> {
    if (!Number.isSafeInteger(orderId) || orderId <= 0) return 'error: payload has no order_id';
    const gql = await clientOf(shopId);
    if (!gql) return 'skipped: refunds are read from the platform; import the order again with its refunds';
    const { order } = await gql.request<{ order: Payload | null }>(ORDER_ONE, { id: toGid('Order', orderId) });
    if (!order || gidNumber(order.id) === null) return 'skipped: unknown order';
    await deps.catalogAdmin.upsertOrders(shopId, [mapOrder(order)]);
    return 'applied';
  }
}
