import type { CatalogIndex } from '../../indexes/catalog-index.js';
import { PlatformRunner } from '../../jobs/platform-runner.js';
import { isRunning, type PlatformView } from '../../domain/platform/types.js';
import type { CatalogStore } from '../../store/kysely/catalog.js';
import type { PlatformStore } from '../../store/kysely/platform.js';
import type { ShopStore } from '../../store/kysely/shops.js';
import type { CatalogService } from '../catalog.js';
import type { UpstreamClient } from '../upstream/client.js';
import { createPlatformConnections, newSync, viewOf } from './connection.js';
import type { GraphqlPolicy } from './graphql.js';
import { removeWebhook } from './subscriptions.js';
import { createPlatformSync, type SyncOptions } from './sync.js';
import type { SealedTokens } from '../sealed-tokens.js';

/** A sync whose row has not moved for this long stopped with its node: it is queued again. */
const STALE_SYNC_MS = 10 * 60_000;

/**
 * The storefront platform connection of every shop (docs/api.md, "Connecting the platform"):
 * the admin API's routes, the background sync and the scheduled reconciliation.
 */
export function createPlatformService(deps: {
  store: PlatformStore & ShopStore & Pick<CatalogStore, 'findExistingProductIds'>;
  catalog: CatalogIndex;
  catalogAdmin: CatalogService;
  upstream: Pick<UpstreamClient, 'call' | 'open' | 'checkResolves'>;
  secretKey: Buffer | null;
  allowPrivate: boolean;
  sync: Omit<SyncOptions, 'orderDays'> & { orderDays?: number };
  policy?: Partial<GraphqlPolicy>;
  log?: { warn(obj: object, msg: string): void };
  sealing?: Pick<SealedTokens, 'refusalToSeal'>;
}) {
  const { store } = deps;
  const runner = new PlatformRunner(
    (shopId) => syncs.runQueued(shopId),
    (error, shopId) => deps.log?.warn({ err: error, shop: shopId }, 'platform sync could not run'),
  );
  const connections = createPlatformConnections({
    store,
    secretKey: deps.secretKey,
    upstream: deps.upstream,
    allowPrivate: deps.allowPrivate,
    ...(deps.policy ? { policy: deps.policy } : {}),
    ...(deps.sealing ? { sealing: deps.sealing } : {}),
    schedule: (shopId) => void runner.schedule(shopId),
  });
  const productIds = async (shopId: number) => {
    const shopCatalog = await deps.catalog.ensure(shopId);
    return shopCatalog ? [...shopCatalog.products.keys()] : [];
  };
  const syncs = createPlatformSync({
    store,
    connections,
    catalogAdmin: deps.catalogAdmin,
    productIds,
    stopping: () => runner.closing,
    options: { orderDays: 365, ...deps.sync },
    ...(deps.log ? { log: deps.log } : {}),
  });

  return {
    connections,
    view: connections.view,
    connect: connections.connect,
    requestSync: connections.requestSync,

    /** Disconnects: the webhook subscriptions it made are removed (as far as the platform answers), the data stays. */
    async disconnect(shopId: number): Promise<PlatformView> {
      const record = await connections.record(shopId);
      const gql = connections.clientFor(record);
      const left = [];
      for (const webhook of record.webhooks) {
        try {
          if (!gql) throw new Error('not connected');
          await removeWebhook(gql, webhook.id);
        } catch {
          left.push(webhook);
        }
      }
      const sync = isRunning(record.sync)
        ? { ...record.sync!, phase: 'failed' as const, error: 'disconnected', finished_at: new Date().toISOString() }
        : record.sync;
      await store.updatePlatformConnection(shopId, {
        status: 'disconnected',
        access_token: null,
        webhooks: left,
        sync,
      });
      return viewOf(await connections.record(shopId));
    },

    /** The app was removed from the shop: syncing stops, nothing is called on the platform again. */
    async uninstalled(shopId: number): Promise<void> {
      const record = await store.getPlatformConnection(shopId);
      if (!record) return;
      const sync = isRunning(record.sync)
        ? {
            ...record.sync!,
            phase: 'failed' as const,
            error: 'the app was uninstalled',
            finished_at: new Date().toISOString(),
          }
        : record.sync;
      await store.updatePlatformConnection(shopId, { status: 'disconnected', access_token: null, webhooks: [], sync });
    },

    /**
     * The periodic check: queued syncs run (after a restart too), a sync whose node stopped is
     * queued again, and a connected shop is reconciled every `platform_reconcile_minutes`.
     */
    async tick(now = Date.now()): Promise<void> {
      for (const record of await store.listPlatformConnections()) {
        if (record.status === 'disconnected') continue;
        const running = isRunning(record.sync);
        if (running && record.sync!.phase !== 'queued' && now - record.updated_at > STALE_SYNC_MS) {
          await store.updatePlatformConnection(
            record.shop_id,
            { sync: newSync(record.sync, record.sync!.mode) },
            { id: record.sync!.id },
          );
        }
        if (running) {
          void runner.schedule(record.shop_id);
          continue;
        }
        const shop = await store.getShopById(record.shop_id);
        const everyMs = (shop?.settings.platform_reconcile_minutes ?? 60) * 60_000;
        if (
          record.status === 'connected' &&
          record.last_reconciled_at !== null &&
          now - record.last_reconciled_at >= everyMs
        ) {
          await connections.requestSync(record.shop_id, 'reconcile');
        }
      }
    },

    /** Resolves when no sync is running on this node (tests and the CLI wait on it). */
    idle: () => runner.idle(),
    close: () => runner.close(),
  };
}

export type PlatformService = ReturnType<typeof createPlatformService>;
