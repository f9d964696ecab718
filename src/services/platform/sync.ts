import { AppError, InvalidDocumentError } from '../../domain/errors.js';
import { mapCollection, mapCustomer, mapOrder, mapProduct } from '../../domain/platform/map.js';
import { BULK_EXPORTS, type BulkResource } from '../../domain/platform/queries.js';
import { isRunning, type PlatformSync, type SyncPhase } from '../../domain/platform/types.js';
import type { CatalogStore } from '../../store/kysely/catalog.js';
import type { PlatformConnectionRecord, PlatformStore } from '../../store/kysely/platform.js';
import type { ShopStore } from '../../store/kysely/shops.js';
import type { CatalogService } from '../catalog.js';
import { runBulkExport } from './bulk.js';
import type { PlatformConnections } from './connection.js';
import { PlatformError, type GraphqlClient } from './graphql.js';
import { reconcile } from './reconcile.js';
import { assembled, stageExport } from './staging.js';
import { ensureWebhooks } from './subscriptions.js';

export interface SyncOptions {
  /** How often a running bulk operation is asked for its status. */
  pollMs: number;
  /** Parents imported per batch (each with its children). */
  batchSize: number;
  /** Longest line of an export file. */
  maxLineBytes: number;
  /** Deadline of reading one export file. */
  fileDeadlineMs: number;
  /** Largest export file staged: the shop's platform cannot fill the database every shop shares. */
  maxFileBytes: number;
  /** Orders of the last this many days are pulled (a shop setting may say otherwise). */
  orderDays: number;
  /** Base of the webhook callback: `{publicUrl}/webhooks/shop/{handle}`. */
  publicUrl: string;
}

const IMPORTERS: Record<
  BulkResource,
  { map: (node: Record<string, unknown>) => unknown; method: keyof CatalogService }
> = {
  products: { map: mapProduct, method: 'upsertProducts' },
  collections: { map: mapCollection, method: 'upsertCollections' },
  customers: { map: mapCustomer, method: 'upsertCustomers' },
  orders: { map: mapOrder, method: 'upsertOrders' },
};

/** Sync counters the metrics read. */
export const syncStats = {
  started: 0,
  done: 0,
  failed: 0,
  imported: { products: 0, collections: 0, customers: 0, orders: 0 },
};

/**
 * Runs a shop's queued sync (docs/api.md, "Connecting the platform"). A full sync exports each
 * resource with one bulk query at a time, streams the file into staging, imports the joined
 * objects in batches through the admin API's services, then subscribes the webhooks. Progress is
 * written after every step in the shape the admin API shows; a failure ends the sync `failed`
 * with the platform's error, and a token refused three times in a row marks the connection failing.
 */
export function createPlatformSync(deps: {
  store: PlatformStore & ShopStore & Pick<CatalogStore, 'findExistingProductIds'>;
  connections: PlatformConnections;
  catalogAdmin: CatalogService;
  productIds: (shopId: number) => Promise<number[]>;
  /** The process is stopping: a sync ends at its next step, and is started again by the merchant or the next one. */
  stopping?: () => boolean;
  options: SyncOptions;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { store, options } = deps;

  /**
   * Maps and imports a batch of the platform's objects; an object that does not map, or a row the
   * admin API refuses, is skipped alone instead of failing its batch (and the rest of the sync).
   */
  async function importNodes(shopId: number, resource: BulkResource, nodes: Record<string, unknown>[]) {
    const rows: unknown[] = [];
    for (const node of nodes) {
      try {
        rows.push(IMPORTERS[resource].map(node));
      } catch (error) {
        deps.log?.warn({ err: error, shop: shopId, resource }, 'platform object skipped: it does not map');
      }
    }
    return importRows(shopId, resource, resource === 'collections' ? await knownMembers(shopId, rows) : rows);
  }

  /**
   * Collections keep only the members the shop has: a product the sync refused (or one the export
   * listed after the collections were read) would otherwise take its whole collection off the shop.
   */
  async function knownMembers(shopId: number, rows: unknown[]): Promise<unknown[]> {
    type Row = { products: { product_id: unknown }[] };
    const collections = rows as Row[];
    const ids = collections.flatMap((row) => row.products.map((member) => member.product_id));
    // Before the admin API's validation: only ids a bigint column can hold are looked up.
    const known = await store.findExistingProductIds(shopId, ids.filter(Number.isSafeInteger) as number[]);
    return collections.map((row) => ({
      ...row,
      products: row.products.filter((member) => known.has(member.product_id as number)),
    }));
  }

  /** Imports a batch; a row the admin API refuses is skipped alone instead of failing its batch. */
  async function importRows(shopId: number, resource: BulkResource, rows: unknown[]): Promise<number> {
    if (rows.length === 0) return 0;
    const method = deps.catalogAdmin[IMPORTERS[resource].method] as (shopId: number, body: unknown) => Promise<unknown>;
    try {
      await method(shopId, rows);
      return rows.length;
    } catch (error) {
      if (!(error instanceof InvalidDocumentError) || rows.length === 1) {
        if (error instanceof InvalidDocumentError) return 0;
        throw error;
      }
      let imported = 0;
      for (const row of rows) imported += await importRows(shopId, resource, [row]);
      return imported;
    }
  }

  async function exportAndImport(
    connection: PlatformConnectionRecord,
    gql: GraphqlClient,
    sync: PlatformSync,
    resource: BulkResource,
    progress: Progress,
  ) {
    const shopId = connection.shop_id;
    const shop = await store.getShopById(shopId);
    const days = shop?.settings.platform_order_days ?? options.orderDays;
    const since = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    if (!(await progress('exporting'))) throw new PlatformError('the sync was stopped');
    // A stop of the process ends the wait too: a platform reporting RUNNING for ever held the shutdown.
    const stillWanted = async () => !deps.stopping?.() && isCurrent(await store.getPlatformConnection(shopId), sync.id);
    const { url } = await runBulkExport(
      gql,
      resource === 'orders' ? BULK_EXPORTS.orders(since) : BULK_EXPORTS[resource](),
      {
        pollMs: options.pollMs,
        stillWanted,
      },
    );
    await progress('importing');
    if (url === null) return;
    try {
      await stageExport(store, shopId, gql.lines(url, options));
      const skipped = (gid: string, lines: number) =>
        deps.log?.warn({ shop: shopId, resource, gid, lines }, 'platform object skipped: it holds too many lines');
      for await (const nodes of assembled(store, shopId, options.batchSize, skipped)) {
        const imported = await importNodes(shopId, resource, nodes);
        sync.counts[resource] += imported;
        syncStats.imported[resource] += imported;
        if (!(await progress('importing'))) throw new PlatformError('the sync was stopped');
      }
    } finally {
      await store.clearStaging(shopId);
    }
  }

  type Progress = (phase: SyncPhase) => Promise<boolean>;

  async function run(connection: PlatformConnectionRecord): Promise<void> {
    const shopId = connection.shop_id;
    const sync = { ...connection.sync! };
    const claimed = await store.updatePlatformConnection(
      shopId,
      { sync: { ...sync, phase: 'exporting', started_at: new Date().toISOString() } },
      { id: sync.id, mode: sync.mode, phase: 'queued' },
    );
    if (!claimed) return;
    syncStats.started++;
    sync.started_at = new Date().toISOString();
    const progress: Progress = async (phase) => {
      // A disconnect, an uninstall or a stop of the process ends the sync between two steps.
      if (deps.stopping?.() || !isCurrent(await store.getPlatformConnection(shopId), sync.id)) return false;
      sync.phase = phase;
      return store.updatePlatformConnection(shopId, { sync: { ...sync } }, { id: sync.id });
    };
    // A stop ends its waits between tries (a webhook's call keeps its own: its hook must not be lost).
    const gql = deps.connections.clientFor(connection, undefined, deps.stopping);
    try {
      if (!gql)
        throw new PlatformError('the access token cannot be opened with this server key: connect the shop again');
      const startedAt = Date.now();
      if (sync.mode === 'full') {
        for (const resource of ['products', 'collections', 'customers', 'orders'] as const)
          await exportAndImport(connection, gql, sync, resource, progress);
      } else {
        await progress('importing');
        await reconcile({
          gql,
          catalogAdmin: deps.catalogAdmin,
          importNodes,
          productIds: deps.productIds,
          shopId,
          since: connection.last_reconciled_at,
          counts: sync.counts,
        });
      }
      await progress('subscribing');
      const shop = await store.getShopById(shopId);
      const webhooks = await ensureWebhooks(
        gql,
        `${options.publicUrl}/webhooks/shop/${shop?.handle ?? ''}`,
        connection.webhooks,
      );
      sync.phase = 'done';
      sync.finished_at = new Date().toISOString();
      await store.updatePlatformConnection(
        shopId,
        {
          sync: { ...sync },
          webhooks,
          refusals: 0,
          status: 'connected',
          last_reconciled_at:
            sync.mode === 'reconcile' || !connection.last_reconciled_at ? startedAt : connection.last_reconciled_at,
        },
        { id: sync.id },
      );
      syncStats.done++;
    } catch (error) {
      syncStats.failed++;
      const message =
        error instanceof PlatformError || error instanceof AppError
          ? error.message
          : 'the sync stopped on an internal error';
      if (!(error instanceof PlatformError)) deps.log?.warn({ err: error, shop: shopId }, 'platform sync failed');
      const refused = error instanceof PlatformError && error.refused;
      const refusals = refused ? connection.refusals + 1 : 0;
      const failed: PlatformSync = { ...sync, phase: 'failed', finished_at: new Date().toISOString(), error: message };
      await store.updatePlatformConnection(
        shopId,
        { sync: failed, refusals, ...(refusals >= 3 ? { status: 'failing' as const } : {}) },
        { id: sync.id },
      );
    }
  }

  return {
    /** Runs the shop's sync if one is queued (and this node claims it). */
    async runQueued(shopId: number): Promise<void> {
      const connection = await store.getPlatformConnection(shopId);
      if (!connection || connection.status === 'disconnected' || connection.sync?.phase !== 'queued') return;
      await run(connection);
    },
  };
}

const isCurrent = (connection: PlatformConnectionRecord | null, syncId: number) =>
  connection !== null &&
  connection.status !== 'disconnected' &&
  connection.sync?.id === syncId &&
  isRunning(connection.sync);
