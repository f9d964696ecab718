import { LRUCache } from 'lru-cache';
import { boundedEntries } from '../domain/maps.js';
import type { Logger } from 'pino';
import type { Shop, ShopSettings } from '../domain/shop.js';
import { CatalogLoader, type LoaderStore } from './catalog-loader.js';
import type { ServedPageReader } from './product-pages.js';
import type { SalesFolder } from './sales.js';
import { estimateCatalogBytes } from './footprint.js';
import { LoadSlots } from './load-slots.js';
import { Residency } from './residency.js';
import type { ShopMemory } from './shop-memory.js';
import type { ShopCatalog } from './shop-catalog.js';

/** What per-request checks read of a shop: its settings (rate limits) and signing secret (customer signatures). */
export type ShopEssentials = Pick<Shop, 'settings' | 'signing_secret'>;

/** What a local write changed, so only that part of the read model is rebuilt. */
export interface CatalogChange {
  products?: number[];
  deletedProducts?: number[];
  collections?: boolean;
  markets?: boolean;
  customers?: boolean;
  rulesets?: boolean;
  orders?: boolean;
  experiments?: boolean;
  shop?: boolean;
}

/** How often event counts (views, adds) are re-read: they do not move the data version. */
const EVENT_COUNTS_EVERY_MS = 60_000;

/**
 * Shops loaded at the same time: one, in arrival order, and a second beside a load that has taken
 * longer than LONG_LOAD_MS (a large shop) — load-slots.ts. Queued loads cost only their waiting
 * requests. A 150-product shop loads in about 3 ms, a 10,000-product one in about 100.
 */
const LOADS_AT_ONCE = 2;
const LONG_LOAD_MS = 25;

/**
 * The in-memory catalogs behind every public endpoint, loaded on a shop's first request and
 * evicted, those used least lately first, when the node's memory budget is spent (docs/scaling.md).
 * A node patches its own writes at once and notices other nodes' writes to the shops it holds
 * by polling their data-version stamps; shops it does not hold are simply read fresh next time.
 */
export class CatalogIndex implements ShopMemory {
  private readonly shops = new Map<number, ShopCatalog>();
  private readonly sizes = new Map<number, number>();
  /** One load or rebuild at a time per shop, in arrival order. */
  private readonly queues = new Map<number, Promise<unknown>>();
  private readonly countsLoadedAt = new Map<number, number>();
  private readonly loader: CatalogLoader;
  /**
   * Settings (rate limits) of shops that are not resident, for requests that never load the
   * catalog (the event intake). Small and bounded; another node's change shows within seconds.
   */
  private readonly settingsOnly = new LRUCache<number, ShopEssentials>({ ...boundedEntries(10_000), ttl: 5_000 });
  private readonly loadSlots = new LoadSlots(LOADS_AT_ONCE, LONG_LOAD_MS);
  rebuilds = 0;
  lastRebuildMs = 0;
  /** Told after this node's own writes are in the store (to tell the other nodes). */
  onLocalChange: ((shopId: number, version: number) => void) | null = null;

  constructor(
    private readonly store: LoaderStore,
    readonly residency: Residency = new Residency(),
    private readonly log?: Logger,
    /** Reads pages of products and folds sales figures off this thread (the assembly thread), when there is one. */
    assembly?: { readPage: ServedPageReader; foldSales: SalesFolder },
  ) {
    this.loader = new CatalogLoader(store, log, assembly?.readPage, undefined, assembly?.foldSales);
    this.loader.onCountsRead = (shopId) => this.countsRead(shopId);
    residency.register(this);
  }

  /** The resident generation of a shop's catalog (undefined when it is not in memory). */
  get(shopId: number): ShopCatalog | undefined {
    return this.shops.get(shopId);
  }

  /**
   * The shop's catalog when it is resident and settled (no load or rebuild pending), counted as a
   * request for it; else undefined. Not pinned: for a request answered before its caller returns,
   * which no load or eviction can come between.
   */
  settled(shopId: number): ShopCatalog | undefined {
    if (this.queues.has(shopId)) return undefined;
    const catalog = this.shops.get(shopId);
    if (catalog !== undefined) this.residency.use(shopId);
    return catalog;
  }

  /** The shops loaded now. */
  shopIds(): number[] {
    return [...this.shops.keys()];
  }

  /** The shop's catalog, loaded first when it is not resident; undefined for a shop that does not exist. */
  async ensure(shopId: number): Promise<ShopCatalog | undefined> {
    const pending = this.queues.get(shopId);
    if (pending) await pending.catch(() => undefined);
    if (!this.shops.has(shopId)) {
      await this.serialize(shopId, async () => {
        if (!this.shops.has(shopId)) await this.loadSlots.run(() => this.build(shopId, 'load'));
      });
    }
    const current = this.shops.get(shopId);
    if (current) this.residency.touch(shopId);
    return current;
  }

  /** A shop's settings: from its resident catalog, else as last read by `ensureSettings`. */
  settings(shopId: number): ShopSettings | undefined {
    return this.essentials(shopId)?.settings;
  }

  /** A shop's settings and signing secret (what per-request checks need), without its catalog. */
  essentials(shopId: number): ShopEssentials | undefined {
    return this.shops.get(shopId)?.shop ?? this.settingsOnly.get(shopId);
  }

  /** Reads a non-resident shop's settings (one small query), or nothing when they are at hand: undefined then. */
  ensureSettings(shopId: number): Promise<void> | undefined {
    if (this.settings(shopId)) return undefined;
    return this.store.getShopById(shopId).then((shop) => {
      if (shop) this.settingsOnly.set(shopId, { settings: shop.settings, signing_secret: shop.signing_secret });
    });
  }

  /**
   * Pins the shop for a request and tells whether it must wait: undefined when the shop is
   * resident and settled (no promise made on the hot path), else a promise of its load.
   */
  hold(shopId: number): { release: () => void; ready: Promise<unknown> | undefined } {
    const release = this.residency.pin(shopId);
    // A request is counted here once (a shop that is not resident counts as its load makes it so).
    const resident = this.shops.has(shopId);
    if (resident) this.residency.use(shopId);
    if (resident && !this.queues.has(shopId)) return { release, ready: undefined };
    return { release, ready: this.ensure(shopId) };
  }

  /**
   * Rebuilds a resident shop's catalog from the store (a shop not in memory stays out), unless by
   * its turn it holds `version` already: a poll or a message that saw a local write's commit before
   * the write's own patch ran must not rebuild the whole shop after it (1.1 s for 200,000 customers).
   */
  reload(shopId: number, version = Number.POSITIVE_INFINITY): Promise<void> {
    return this.serialize(shopId, async () => {
      if ((this.shops.get(shopId)?.version ?? -1) >= version) return;
      await this.build(shopId, 'refresh');
    });
  }

  /** A rebuild in flight for the shop, if any: requests wait for it so they never see older data. */
  pending(shopId: number): Promise<unknown> | undefined {
    return this.queues.get(shopId);
  }

  /** Another node announced a write: rebuild a resident shop unless this node has that version already. */
  refreshShop(shopId: number, version: number): Promise<void> {
    const current = this.shops.get(shopId);
    if (!current || current.version >= version) return Promise.resolve();
    return this.reload(shopId, version);
  }

  /**
   * Applies a local write: patches only what changed in a resident shop, or everything if another
   * node wrote meanwhile.
   */
  async apply(shopId: number, change: CatalogChange): Promise<void> {
    if (change.shop) this.settingsOnly.delete(shopId);
    await this.patch(shopId, change);
    const version = this.shops.get(shopId)?.version ?? (await this.store.getShopById(shopId))?.data_version;
    if (version !== undefined) this.onLocalChange?.(shopId, version);
  }

  private patch(shopId: number, change: CatalogChange): Promise<void> {
    return this.serialize(shopId, async () => {
      const current = this.shops.get(shopId);
      if (!current) return; // not in memory: its next request reads it whole, writes included
      const shop = await this.store.getShopById(shopId);
      if (!shop) return this.drop(shopId);
      // A rebuild that ran first (a poll that saw our commit) read our write already: nothing to patch.
      if (shop.data_version === current.version) return;
      // Our write moved the version by one; any other move means writes we have not seen.
      if (shop.data_version !== current.version + 1) return this.build(shopId, 'refresh');
      const started = performance.now();
      let products = current.products;
      if (change.products?.length || change.deletedProducts?.length) {
        const next = new Map(products);
        for (const id of change.deletedProducts ?? []) next.delete(id);
        for (const product of await this.loader.productsById(shopId, change.products ?? []))
          next.set(product.id, product);
        products = next;
      }
      const [collections, markets, customers, rulesets, sales, experiments] = await Promise.all([
        change.collections ? this.loader.collections(shopId) : current.collections,
        change.markets ? this.loader.markets(shopId) : current.markets,
        change.customers ? this.loader.customers(shopId) : current.customers,
        change.rulesets ? this.loader.rulesets(shopId) : current.rulesets,
        change.orders ? this.loader.sales(shopId, shop) : current.sales,
        change.experiments ? this.loader.experiments(shopId) : current.experiments,
      ]);
      if (!this.shops.has(shopId)) return; // evicted while the parts were read
      this.install(
        current.with({
          shop,
          version: shop.data_version,
          products,
          collections,
          markets,
          customers,
          rulesets,
          sales,
          experiments,
        }),
      );
      this.residency.trim(shopId);
      this.log?.debug({ shopId, ms: Math.round(performance.now() - started) }, 'catalog patched');
    });
  }

  /** Rebuilds the resident shops whose stamp moved since we loaded them (writes made by other nodes). */
  async refreshStale(): Promise<number> {
    if (this.shops.size === 0) return 0;
    let refreshed = 0;
    const live = new Set<number>();
    for (const { id, data_version } of await this.store.listShopVersions()) {
      live.add(id);
      const current = this.shops.get(id);
      if (!current || current.version >= data_version) continue;
      await this.reload(id, data_version);
      refreshed++;
    }
    for (const id of [...this.shops.keys()]) if (!live.has(id)) this.drop(id);
    return refreshed;
  }

  /** The shops this node holds, the next to be evicted first, with each one's estimated bytes (all holders). */
  listResident(): { id: number; handle: string; bytes: number }[] {
    const listed = [];
    for (const id of this.residency.evictionOrder()) {
      const catalog = this.shops.get(id);
      if (catalog) listed.push({ id, handle: catalog.shop.handle, bytes: this.residency.shopBytes(id) });
    }
    return listed;
  }

  /** Loads that read the shop's load snapshot instead of its parts (since start). */
  get snapshotLoads(): number {
    return this.loader.snapshotLoads;
  }

  /** Resolves once the copies loads write for later loads (snapshots, kept event totals) are written. */
  copiesWritten(): Promise<void> {
    return this.loader.copiesWritten();
  }

  /** Estimated bytes of the shop's resident generation (the memory budget's unit). */
  bytes(shopId: number): number {
    return this.sizes.get(shopId) ?? 0;
  }

  /** Drops a shop's generation; its next request loads it again. */
  evict(shopId: number): void {
    this.shops.delete(shopId);
    this.sizes.delete(shopId);
    this.countsLoadedAt.delete(shopId);
  }

  private drop(shopId: number): void {
    this.evict(shopId);
    this.residency.forget(shopId);
  }

  private install(catalog: ShopCatalog): void {
    this.shops.set(catalog.shop.id, catalog);
    this.sizes.set(catalog.shop.id, estimateCatalogBytes(catalog));
  }

  /** A full build: `load` makes a shop resident; `refresh` only replaces one that still is. */
  private async build(shopId: number, mode: 'load' | 'refresh'): Promise<void> {
    if (mode === 'refresh' && !this.shops.has(shopId)) return;
    const started = performance.now();
    const catalog = await this.loader.full(shopId);
    if (!catalog) return this.drop(shopId);
    if (mode === 'refresh' && !this.shops.has(shopId)) return; // evicted during the build
    this.install(catalog);
    this.countsLoadedAt.delete(shopId); // the new generation reads its counts when asked
    this.rebuilds++;
    this.lastRebuildMs = performance.now() - started;
    if (mode === 'load') this.residency.loaded(shopId);
    else this.residency.trim(shopId);
    this.log?.debug(
      { shop: catalog.shop.handle, products: catalog.products.size, ms: Math.round(this.lastRebuildMs), mode },
      'catalog index built',
    );
  }

  /**
   * A resident generation's counts were read on demand: its estimate grows by them, and they are
   * re-read every minute from now on.
   */
  private countsRead(shopId: number): void {
    const current = this.shops.get(shopId);
    if (!current?.eventCountsOnDemand.now) return;
    this.install(current);
    this.countsLoadedAt.set(shopId, Date.now());
    this.residency.trim(shopId);
  }

  /**
   * Re-reads one resident shop's event counts now (after a bulk import, which the minute refresh
   * would only see later), when they have been read: otherwise they are read fresh when asked for.
   */
  async reloadEventCounts(shopId: number): Promise<void> {
    await this.serialize(shopId, async () => {
      if (!this.shops.get(shopId)?.eventCountsOnDemand.now) return;
      const counts = await this.loader.eventCounts(shopId);
      const current = this.shops.get(shopId);
      if (!current) return;
      this.install(current.with({ eventCounts: counts }));
      this.countsLoadedAt.set(shopId, Date.now());
    });
  }

  /** Re-reads event counts that are older than a minute (intake does not move the data version). */
  async refreshEventCounts(): Promise<void> {
    for (const [shopId, loadedAt] of [...this.countsLoadedAt]) {
      if (Date.now() - loadedAt < EVENT_COUNTS_EVERY_MS) continue;
      await this.reloadEventCounts(shopId);
    }
  }

  private serialize(shopId: number, work: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(shopId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.queues.set(shopId, next);
    void next
      .finally(() => {
        if (this.queues.get(shopId) === next) this.queues.delete(shopId);
      })
      .catch(() => undefined);
    return next;
  }
}
