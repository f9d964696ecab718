import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import { compileRuleset } from '../domain/rules/compile.js';
import { DEFAULT_TRENDING } from '../domain/ranking/trending.js';
import { utcDay } from '../domain/events.js';
import { buildSales, DAY_MS } from './sales.js';
import { indexMarket, indexProduct, ShopCatalog, type IndexedProduct, type IndexedRuleset } from './shop-catalog.js';

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

type IndexStore = Pick<Store, 'getShopById' | 'listProducts' | 'listCollections' | 'listMarkets' | 'listCustomers' | 'listShopVersions' | 'listShops'
  | 'listRulesets' | 'listOrderLines' | 'listEventCounts' | 'listExperiments'>;

/** How often event counts (views, adds) are re-read: they do not move the data version. */
const EVENT_COUNTS_EVERY_MS = 60_000;

/** Products read per query when a shop's catalog is built. */
const PRODUCT_PAGE = 500;

/**
 * The in-memory catalog of every shop, behind every public endpoint. A node patches its own
 * writes at once and notices other nodes' writes by polling the shops' data-version stamps.
 */
export class CatalogIndex {
  private readonly shops = new Map<number, ShopCatalog>();
  /** One rebuild at a time per shop, in arrival order. */
  private readonly queues = new Map<number, Promise<unknown>>();
  private readonly countsLoadedAt = new Map<number, number>();
  rebuilds = 0;
  lastRebuildMs = 0;
  /** Told after this node's own writes are in the read model (to tell the other nodes). */
  onLocalChange: ((shopId: number, version: number) => void) | null = null;

  constructor(private readonly store: IndexStore, private readonly log?: Logger) {}

  /** The current generation of a shop's catalog (undefined until loaded). */
  get(shopId: number): ShopCatalog | undefined {
    return this.shops.get(shopId);
  }

  /** The shops loaded now. */
  shopIds(): number[] {
    return [...this.shops.keys()];
  }

  /** Loads every shop; called once at start-up. */
  async loadAll(): Promise<void> {
    for (const shop of await this.store.listShops()) await this.reload(shop.id);
  }

  /** Rebuilds a shop's catalog from the store. */
  reload(shopId: number): Promise<void> {
    return this.serialize(shopId, () => this.build(shopId));
  }

  /** A rebuild in flight for the shop, if any: requests wait for it so they never see older data. */
  pending(shopId: number): Promise<unknown> | undefined {
    return this.queues.get(shopId);
  }

  /** Another node announced a write: rebuild unless this node has that version already. */
  refreshShop(shopId: number, version: number): Promise<void> {
    const current = this.shops.get(shopId);
    if (current && current.version >= version) return Promise.resolve();
    return this.reload(shopId);
  }

  /** Applies a local write: reloads only what changed, or everything if another node wrote meanwhile. */
  async apply(shopId: number, change: CatalogChange): Promise<void> {
    await this.patch(shopId, change);
    const version = this.shops.get(shopId)?.version;
    if (version !== undefined) this.onLocalChange?.(shopId, version);
  }

  private patch(shopId: number, change: CatalogChange): Promise<void> {
    return this.serialize(shopId, async () => {
      const current = this.shops.get(shopId);
      const shop = await this.store.getShopById(shopId);
      if (!shop) {
        this.shops.delete(shopId);
        return;
      }
      // Our write moved the version by one; any other move means writes we have not seen.
      if (!current || shop.data_version !== current.version + 1) return this.build(shopId);
      const started = performance.now();
      let products = current.products;
      if (change.products?.length || change.deletedProducts?.length) {
        const next = new Map(products);
        for (const id of change.deletedProducts ?? []) next.delete(id);
        for (const product of await this.store.listProducts(shopId, { ids: change.products ?? [] })) next.set(product.id, indexProduct(product));
        products = next;
      }
      const [collections, markets, customers, rulesets, sales, experiments] = await Promise.all([
        change.collections ? this.loadCollections(shopId) : current.collections,
        change.markets ? this.loadMarkets(shopId) : current.markets,
        change.customers ? this.loadCustomers(shopId) : current.customers,
        change.rulesets ? this.loadRulesets(shopId) : current.rulesets,
        change.orders ? this.loadSales(shopId) : current.sales,
        change.experiments ? this.store.listExperiments(shopId) : current.experiments,
      ]);
      this.shops.set(shopId, current.with({ shop, version: shop.data_version, products, collections, markets, customers, rulesets, sales, experiments }));
      this.log?.debug({ shopId, ms: Math.round(performance.now() - started) }, 'catalog patched');
    });
  }

  /** Rebuilds the shops whose stamp moved since we loaded them (writes made by other nodes). */
  async refreshStale(): Promise<number> {
    let refreshed = 0;
    const versions = await this.store.listShopVersions();
    const live = new Set<number>();
    for (const { id, data_version } of versions) {
      live.add(id);
      const current = this.shops.get(id);
      if (current && current.version >= data_version) continue;
      await this.reload(id);
      refreshed++;
    }
    for (const id of this.shops.keys()) if (!live.has(id)) this.shops.delete(id);
    return refreshed;
  }

  private async build(shopId: number): Promise<void> {
    const started = performance.now();
    const shop = await this.store.getShopById(shopId);
    if (!shop) {
      this.shops.delete(shopId);
      return;
    }
    const [products, collections, markets, customers, rulesets, sales, eventCounts, experiments] = await Promise.all([
      this.loadProducts(shopId),
      this.loadCollections(shopId),
      this.loadMarkets(shopId),
      this.loadCustomers(shopId),
      this.loadRulesets(shopId),
      this.loadSales(shopId),
      this.loadEventCounts(shopId),
      this.store.listExperiments(shopId),
    ]);
    this.shops.set(shopId, new ShopCatalog(shop, shop.data_version, products, collections, markets, customers, rulesets, sales, eventCounts, experiments));
    this.rebuilds++;
    this.lastRebuildMs = performance.now() - started;
    this.log?.info({ shop: shop.handle, products: products.size, ms: Math.round(performance.now() - started) }, 'catalog index built');
  }

  /** Products a page at a time, so a large catalog's parsed documents never all live at once. */
  private async loadProducts(shopId: number): Promise<Map<number, IndexedProduct>> {
    const products = new Map<number, IndexedProduct>();
    let afterId = 0;
    for (;;) {
      const page = await this.store.listProducts(shopId, { afterId, limit: PRODUCT_PAGE });
      for (const row of page) products.set(row.id, indexProduct(row));
      if (page.length < PRODUCT_PAGE) return products;
      afterId = page[page.length - 1]!.id;
    }
  }

  private async loadCollections(shopId: number) {
    return new Map((await this.store.listCollections(shopId)).map((c) => [c.id, c]));
  }

  private async loadMarkets(shopId: number) {
    return (await this.store.listMarkets(shopId)).map(indexMarket);
  }

  private async loadCustomers(shopId: number) {
    return new Map((await this.store.listCustomers(shopId)).map((c) => [c.id, c]));
  }

  /** Compiles every stored ruleset; one that no longer compiles is logged and left out (a 404). */
  private async loadRulesets(shopId: number) {
    const map = new Map<number, IndexedRuleset>();
    for (const ruleset of await this.store.listRulesets(shopId)) {
      try {
        const { id: _id, version: _v, created_at: _c, updated_at: _u, ...document } = ruleset;
        map.set(ruleset.id, { ruleset, compiled: compileRuleset(document), ruleJson: ruleset.rules.map((r) => JSON.stringify(r)) });
      } catch (error) {
        this.log?.error({ shopId, ruleset: ruleset.id, err: error }, 'stored ruleset does not compile; it is not served');
      }
    }
    return map;
  }

  /** Views and adds of the last 30 days per handle. */
  private async loadEventCounts(shopId: number) {
    this.countsLoadedAt.set(shopId, Date.now());
    const counts = new Map<string, { views: number; adds: number }>();
    for (const row of await this.store.listEventCounts(shopId, utcDay(Date.now() - 30 * DAY_MS))) {
      const c = counts.get(row.handle) ?? { views: 0, adds: 0 };
      c.views += row.views;
      c.adds += row.adds;
      counts.set(row.handle, c);
    }
    return counts;
  }

  /** Re-reads one shop's event counts now (after a bulk import, which the minute refresh would only see later). */
  async reloadEventCounts(shopId: number): Promise<void> {
    await this.serialize(shopId, async () => {
      const current = this.shops.get(shopId);
      if (current) this.shops.set(shopId, current.with({ eventCounts: await this.loadEventCounts(shopId) }));
    });
  }

  /** Re-reads event counts that are older than a minute (intake does not move the data version). */
  async refreshEventCounts(): Promise<void> {
    for (const [shopId, loadedAt] of this.countsLoadedAt) {
      if (Date.now() - loadedAt < EVENT_COUNTS_EVERY_MS) continue;
      await this.reloadEventCounts(shopId);
    }
  }

  private async loadSales(shopId: number) {
    const now = Date.now();
    const shop = await this.store.getShopById(shopId);
    return buildSales(await this.store.listOrderLines(shopId, 0), now, {
      windowDays: shop?.settings.trending_window_days ?? DEFAULT_TRENDING.windowDays,
      halfLifeDays: shop?.settings.trending_half_life_days ?? DEFAULT_TRENDING.halfLifeDays,
      counts: shop?.settings.trending_counts ?? DEFAULT_TRENDING.counts,
    });
  }

  private serialize(shopId: number, work: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(shopId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.queues.set(shopId, next);
    void next.finally(() => {
      if (this.queues.get(shopId) === next) this.queues.delete(shopId);
    }).catch(() => undefined);
    return next;
  }
}
