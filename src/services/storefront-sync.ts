import { createHmac } from 'node:crypto';
import { normalizeTimestamp } from '../domain/catalog/normalize.js';
import {
  AppError,
  InvalidBodyError,
  InvalidInputError,
  MissingInputError,
  UnavailableError,
} from '../domain/errors.js';
import { safeEqual } from '../domain/keys.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { CatalogStore } from '../store/kysely/catalog.js';
import type { CollectionPageStore } from '../store/kysely/collection-pages.js';
import type { PrivacyStore } from '../store/kysely/privacy.js';
import type { ShopWebhookStore } from '../store/kysely/shop-webhooks.js';
import type { ShopStore } from '../store/kysely/shops.js';
import type { CatalogService } from './catalog.js';
import { signatureRefused, webhookShop } from './webhook-shop.js';
import { ERASED_UNLINKED, PLATFORM_TOPICS, PRIVACY_TRIES, privacyRetryAt } from './platform/webhooks.js';
import { parseUpstreamJson } from '../domain/inputs/upstream-json.js';
import { upstreamId, wholeNumber } from '../domain/inputs/whole-numbers.js';

export const SHOP_TOPICS = [
  'products/create',
  'products/update',
  'products/delete',
  'collections/create',
  'collections/update',
  'collections/delete',
  'inventory_levels/update',
  'orders/create',
  'orders/updated',
  'orders/cancelled',
  ...PLATFORM_TOPICS,
] as const;

const stamp = (value: unknown): number | null =>
  typeof value === 'string' && !Number.isNaN(Date.parse(normalizeTimestamp(value)))
    ? Date.parse(normalizeTimestamp(value))
    : null;

/** A delivery the platform fired longer ago than this is answered and not applied (a replay). */
export const MAX_DELIVERY_AGE_MS = 24 * 3600 * 1000;

/** Whether `X-Shopify-Triggered-At` says the delivery is older than a day (an unreadable value counts as old). */
function replayed(triggeredAt: string | undefined, now: number): boolean {
  if (triggeredAt === undefined) return false;
  const at = Date.parse(triggeredAt);
  return Number.isNaN(at) || now - at > MAX_DELIVERY_AGE_MS;
}

/** A deletion as the platform sends it: the id alone. */
function deleteShaped(payload: object): boolean {
  const keys = Object.keys(payload);
  return keys.length === 1 && keys[0] === 'id' && upstreamId((payload as { id: unknown }).id) !== null;
}

/**
 * Storefront sync (docs/api.md, "Admin API"): webhooks are checked, queued durably and answered at once;
 * a worker applies them in arrival order through the same services as the admin API. A repeated
 * webhook id is queued once; an older `updated_at` never overwrites a newer one.
 */
export function createStorefrontSync(deps: {
  store: ShopStore &
    ShopWebhookStore &
    CatalogStore &
    CollectionPageStore &
    Pick<PrivacyStore, 'deleteShopData' | 'erasures' | 'erasedDigests'>;
  catalogAdmin: CatalogService;
  catalog: CatalogIndex;
  log?: { warn(obj: object, msg: string): void };
  /** The topics the platform connection and the privacy service apply (null: the catalog's own handling). */
  platformTopics?: (
    shopId: number,
    topic: string,
    payload: Record<string, unknown>,
    webhookId: string,
  ) => Promise<string | null>;
  /**
   * Asked before a deletion is applied: false when the resource still exists upstream (a connected
   * shop's platform is asked; without a connection the signed, delete-shaped body is trusted).
   */
  confirmGone?: (shopId: number, resource: 'products' | 'collections', id: number) => Promise<boolean>;
  clock?: () => number;
}) {
  const { store, catalogAdmin, catalog } = deps;
  const clock = deps.clock ?? Date.now;
  let running: Promise<number> | null = null;

  async function apply(
    shopId: number,
    topic: string,
    payload: Record<string, unknown>,
    webhookId: string,
  ): Promise<string> {
    const handled = await deps.platformTopics?.(shopId, topic, payload, webhookId);
    if (handled !== undefined && handled !== null) return handled;
    const id = upstreamId(payload.id) ?? Number.NaN;
    const [resource, action] = topic.split('/') as [string, string];
    if (resource === 'products' || resource === 'orders' || resource === 'collections') {
      if (action === 'delete') {
        if (!Number.isSafeInteger(id)) return 'error: payload has no id';
        if (resource !== 'orders' && deps.confirmGone && !(await deps.confirmGone(shopId, resource, id)))
          return 'skipped: the platform still has it';
        if (resource === 'products')
          return (await catalogAdmin.deleteProduct(shopId, id)) ? 'applied' : 'skipped: unknown product';
        if (resource === 'collections') {
          const deleted = await store.deleteCollection(shopId, id);
          if (deleted) await catalog.apply(shopId, { collections: true });
          return deleted ? 'applied' : 'skipped: unknown collection';
        }
      }
      const incoming = stamp(payload.updated_at);
      if (Number.isSafeInteger(id) && incoming !== null) {
        const stored = (await store.updatedAt(shopId, resource, [id])).get(id);
        if (stored !== undefined && stored > incoming) return 'skipped: older than the stored version';
      }
      if (resource === 'products') await catalogAdmin.upsertProducts(shopId, [payload]);
      else if (resource === 'orders') {
        if ((await catalogAdmin.upsertOrders(shopId, [payload])).erased > 0) return ERASED_UNLINKED;
      } else {
        // A collection webhook without its members keeps the stored membership.
        const members =
          payload.products ??
          (Number.isSafeInteger(id)
            ? (await store.collectionPage(shopId, { ids: [id], limit: 1 })).collections[0]?.products
            : undefined) ??
          [];
        await catalogAdmin.upsertCollections(shopId, [
          {
            id: payload.id,
            title: payload.title,
            handle: payload.handle,
            products: members,
            ...(payload.updated_at ? { updated_at: payload.updated_at } : {}),
          },
        ]);
      }
      return 'applied';
    }
    // inventory_levels/update: {variant_id, inventory_quantity} or the platform's {inventory_item_id, available}.
    const variantId =
      upstreamId(payload.variant_id) ??
      (await variantOfItem(shopId, upstreamId(payload.inventory_item_id) ?? Number.NaN));
    const quantity = wholeNumber(payload.inventory_quantity ?? payload.available) ?? Number.NaN;
    if (!Number.isSafeInteger(variantId) || !Number.isSafeInteger(quantity))
      return 'error: needs variant_id (or a known inventory_item_id) and a whole quantity';
    await catalogAdmin.setInventory(shopId, [{ variant_id: variantId, inventory_quantity: quantity }]);
    return 'applied';
  }

  /** The variant holding an inventory item, read from the catalog's variant JSON once per generation. */
  async function variantOfItem(shopId: number, itemId: number): Promise<number | undefined> {
    const current = await catalog.ensure(shopId);
    if (!current || !Number.isSafeInteger(itemId)) return undefined;
    return current
      .memo('inventory-items', () => {
        const map = new Map<number, number>();
        for (const product of current.products.values()) {
          for (const text of product.json.variants) {
            const v = JSON.parse(text) as { id: number; inventory_item_id: number };
            map.set(v.inventory_item_id, v.id);
          }
        }
        return map;
      })
      .get(itemId);
  }

  /**
   * Applies the queued webhooks, each shop's in order and the shops side by side: a shop's hook
   * may wait on its platform (a refund read again, a deletion confirmed), and one slow platform
   * held every other shop's webhooks behind it.
   */
  async function drain(): Promise<number> {
    let done = 0;
    for (;;) {
      const batch = await store.pendingShopWebhooks(100, clock());
      if (batch.length === 0) return done;
      const byShop = new Map<number, typeof batch>();
      for (const hook of batch) {
        const hooks = byShop.get(hook.shop_id);
        if (hooks) hooks.push(hook);
        else byShop.set(hook.shop_id, [hook]);
      }
      await Promise.all(
        [...byShop.entries()].map(async ([shopId, hooks]) => {
          // A shop deleted (shop/redact) takes the hooks queued for it along, unapplied: applied, a
          // customers/update would write the customer again under a shop that no longer exists.
          // Looked up once a run, and after its redact: not once a hook.
          if (!(await store.getShopById(shopId))) return store.deleteShopData(shopId);
          for (const hook of hooks) {
            await applyQueued(hook);
            // Its rows went with it; a hook that arrives for it meanwhile is deleted by the next run.
            if (hook.topic === 'shop/redact' && !(await store.getShopById(shopId))) return;
          }
        }),
      );
      done += batch.length;
    }
  }

  async function applyQueued(hook: {
    shop_id: number;
    topic: string;
    payload: string;
    webhook_id: string;
    attempts: number;
  }) {
    let outcome: string;
    try {
      const payload = parseUpstreamJson(hook.payload) as Record<string, unknown>;
      outcome = await apply(hook.shop_id, hook.topic, payload, hook.webhook_id);
    } catch (error) {
      // A payload refused (a 422's reason) is the platform's data or ours drifting: the operator hears of it.
      const about = { shopId: hook.shop_id, topic: hook.topic, webhook: hook.webhook_id, attempts: hook.attempts + 1 };
      // Unavailable is ours (a database, erasures racing an export): tried again, not refused.
      if (error instanceof AppError && !(error instanceof UnavailableError)) {
        deps.log?.warn({ ...about, reason: error.message }, 'storefront webhook refused');
        outcome = `error: ${error.message}`;
      } else {
        // A privacy request is not lost to a failure of ours: it stays queued, its body kept, for a later try.
        const retryAt = privacyRetryAt(hook.topic, hook.attempts, clock());
        deps.log?.warn({ ...about, err: error, retryAt }, 'storefront webhook failed');
        if (retryAt !== null) return store.retryShopWebhookAt(hook.shop_id, hook.webhook_id, retryAt);
        outcome = hook.attempts > 0 ? `error: could not apply in ${PRIVACY_TRIES} tries` : 'error: could not apply';
      }
    }
    await store.markShopWebhook(hook.shop_id, hook.webhook_id, outcome);
  }

  return {
    /**
     * Checks and queues a webhook; the answer does not wait for it to be applied. `dialect` names
     * the headers it came with: Rebound's neutral `X-Shop-*` or the platform's own `X-Shopify-*`
     * (the same signature over the raw body). A platform topic Rebound does not use is acknowledged
     * and ignored, so the platform does not keep resending it.
     */
    async receive(
      handle: string,
      headers: {
        signature?: string;
        topic?: string;
        webhookId?: string;
        eventId?: string;
        triggeredAt?: string;
        dialect?: 'neutral' | 'platform';
      },
      raw: Buffer,
    ): Promise<'queued' | 'duplicate' | 'ignored'> {
      const prefix = headers.dialect === 'platform' ? 'X-Shopify' : 'X-Shop';
      const { shop, secret } = await webhookShop(store, handle, (s) => s.webhook_secret, raw);
      const expected = createHmac('sha256', secret).update(raw).digest('base64');
      if (!headers.signature || !safeEqual(headers.signature.trim(), expected)) throw signatureRefused();
      if (!(SHOP_TOPICS as readonly string[]).includes(headers.topic ?? '')) {
        if (headers.dialect === 'platform') return 'ignored';
        if (!headers.topic) throw new MissingInputError(`${prefix}-Topic`, `The ${prefix}-Topic header is required.`);
        throw new InvalidInputError(`${prefix}-Topic`, `Unknown webhook topic "${headers.topic.slice(0, 60)}".`);
      }
      if (!headers.webhookId || headers.webhookId.length > 200)
        throw new (headers.webhookId ? InvalidInputError : MissingInputError)(
          `${prefix}-Webhook-Id`,
          `The ${prefix}-Webhook-Id header is required (at most 200 characters).`,
        );
      let payload: unknown;
      try {
        payload = parseUpstreamJson(raw.toString('utf8'));
      } catch {
        throw new InvalidBodyError('The webhook body is not valid JSON.');
      }
      if (!payload || typeof payload !== 'object' || Array.isArray(payload))
        throw new InvalidBodyError('The webhook body must be a JSON object.');
      // A replay: fired more than a day ago, or a signed body of another topic sent as a deletion.
      if (replayed(headers.triggeredAt, clock()) || (headers.topic!.endsWith('/delete') && !deleteShaped(payload)))
        return 'ignored';
      if (headers.eventId !== undefined && (headers.eventId.length === 0 || headers.eventId.length > 200))
        throw new InvalidInputError(`${prefix}-Event-Id`, `The ${prefix}-Event-Id header must be 1 to 200 characters.`);
      const queued = await store.enqueueShopWebhook(
        shop.id,
        headers.webhookId,
        headers.topic!,
        raw.toString('utf8'),
        headers.eventId,
      );
      if (queued)
        void this.applyPending().catch((error: unknown) =>
          deps.log?.warn({ err: error }, 'storefront webhooks will be applied later'),
        );
      return queued ? 'queued' : 'duplicate';
    },

    /** Applies what is queued, one run at a time. */
    applyPending(): Promise<number> {
      running ??= drain().finally(() => {
        running = null;
      });
      return running;
    },
  };
}

export type StorefrontSync = ReturnType<typeof createStorefrontSync>;
