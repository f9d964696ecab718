import type { Logger } from 'pino';
import type { CatalogStore } from '../store/kysely/catalog.js';
import type { CommerceStore } from '../store/kysely/commerce.js';
import type { EventStore } from '../store/kysely/events.js';
import type { ExperimentStore } from '../store/kysely/experiments.js';
import type { ServingStore } from '../store/kysely/product-serving.js';
import type { RulesetStore } from '../store/kysely/rulesets.js';
import type { ShopStore } from '../store/kysely/shops.js';
import type { SnapshotStore } from '../store/kysely/snapshots.js';
import type { SoldLine } from '../store/kysely/commerce.js';
import { compileRuleset } from '../domain/rules/compile.js';
import type { Collection, Customer } from '../domain/catalog/collection.js';
import type { Shop } from '../domain/shop.js';
import { DEFAULT_TRENDING, type TrendingSettings } from '../domain/ranking/trending.js';
import { utcDay } from '../domain/events.js';
import { indexCollection, type IndexedCollection } from './collection-index.js';
import { CustomerIndex } from './customer-index.js';
import { CountsOnDemand } from './counts-on-demand.js';
import { EventCounts } from './event-counts.js';
import { DAY_MS, foldSales, salesOf, type SalesFolder } from './sales.js';
import { PageProducts } from './page-products.js';
import { unpackServed } from './product-serving.js';
import { ProductPages, type ServedPageReader } from './product-pages.js';
import { indexMarket } from './indexed-market.js';
import { ShopCatalog, type IndexedProduct, type IndexedRuleset } from './shop-catalog.js';
import type { LoadParts } from './shop-snapshot.js';
import { ShopSnapshots } from './shop-snapshots.js';
import { nextTurn } from './turns.js';

/** What a shop's load reads: the ports of every part of the read model. */
export type LoaderStore = ShopStore &
  CatalogStore &
  ServingStore &
  SnapshotStore &
  CommerceStore &
  RulesetStore &
  EventStore &
  ExperimentStore;

/** A shop's collections as the read model keeps them, by id: from a snapshot, a load or a patch. */
/** Customers read per page when a write changed them (about 16 ms of the event loop each). */
const CUSTOMER_PAGE = 20_000;

const collectionsById = (collections: readonly IndexedCollection[]) => new Map(collections.map((c) => [c.id, c]));

const indexed = (collections: readonly Collection[]) => collections.map(indexCollection);

/** Reads the parts of a shop's read model from the store; the index decides when. */
export class CatalogLoader {
  private readonly snapshots: ShopSnapshots;
  private readonly pages: ProductPages;
  /** Told when a generation's event counts have been read on demand (after its load). */
  onCountsRead: ((shopId: number) => void) | null = null;
  /** Sums of past days' event counts being kept (not awaited by the load that made them). */
  private readonly keeping = new Set<Promise<unknown>>();

  constructor(
    private readonly store: LoaderStore,
    private readonly log?: Logger,
    /** Where pages after the first are read and packed: the assembly thread, else this one. */
    readPage?: ServedPageReader,
    /** Products read here before the assembly thread is asked for the rest. */
    localProducts?: number,
    /** Where a patch's sales figures are folded: the assembly thread, else this one. */
    private readonly foldOffThread?: SalesFolder,
  ) {
    this.pages = new ProductPages(store, readPage, localProducts);
    this.snapshots = new ShopSnapshots(store, log);
  }

  /**
   * A whole generation of the shop's catalog, or null when the shop does not exist: from its load
   * snapshot when one of its version is stored, else read part by part, and a snapshot written of
   * the parts afterwards (shops whose products are all read on this thread). Its event counts are
   * read when first asked for (`CountsOnDemand`).
   */
  async full(shopId: number): Promise<ShopCatalog | null> {
    const shop = await this.store.getShopById(shopId);
    if (!shop) return null;
    const stored = await this.snapshots.read(shop);
    let products: ReadonlyMap<number, IndexedProduct>;
    let parts: Omit<LoadParts, 'products'>;
    if (stored) {
      products = PageProducts.of(stored.products.ids, unpackServed(stored.products));
      parts = stored;
      await nextTurn(); // half of the work behind, the sales figures ahead
    } else {
      // The store answers on this thread: read at once, the parts were one stretch of the event loop
      // (3 ms for a 150-product shop, 10 at p90) that every request of the shops already in memory
      // waited behind. In three turns, none waits for more than about a third of a load.
      const read = await this.pages.read(shopId, true);
      products = read.products;
      await nextTurn();
      const [collections, markets, customers] = await Promise.all([
        this.store.listCollections(shopId),
        this.store.listMarkets(shopId),
        this.store.listCustomers(shopId),
      ]);
      await nextTurn();
      parts = {
        collections: indexed(collections),
        markets,
        customers: CustomerIndex.of(customers),
        sales: this.fold(await this.store.listSoldLines(shopId), shop),
      };
      if (read.packed) this.snapshots.keep(shop, { ...parts, products: read.packed });
    }
    const [rulesets, experiments] = await Promise.all([this.rulesets(shopId), this.experiments(shopId)]);
    return new ShopCatalog(
      shop,
      shop.data_version,
      products,
      collectionsById(parts.collections),
      parts.markets.map(indexMarket),
      parts.customers,
      rulesets,
      salesOf(parts.sales, Date.now()),
      new CountsOnDemand(
        () => this.eventCounts(shopId),
        () => this.onCountsRead?.(shopId),
      ),
      experiments,
    );
  }

  /** Loads that read the shop's snapshot (since start); the others read it part by part. */
  get snapshotLoads(): number {
    return this.snapshots.loads;
  }

  /**
   * Resolves once the copies being written now for later loads (snapshots, kept sums of event
   * counts) are written or given up: before the store closes.
   */
  async copiesWritten(): Promise<void> {
    await Promise.all([this.snapshots.written(), ...this.keeping]);
  }

  /** The shop's experiments (routing of the custom endpoint reads them from memory). */
  experiments(shopId: number) {
    return this.store.listExperiments(shopId);
  }

  /** Every product of the shop. */
  async products(shopId: number): Promise<Map<number, IndexedProduct>> {
    return (await this.pages.read(shopId, false)).products;
  }

  async productsById(shopId: number, ids: number[]): Promise<IndexedProduct[]> {
    return this.pages.byId(shopId, ids);
  }

  async collections(shopId: number) {
    return collectionsById(indexed(await this.store.listCollections(shopId)));
  }

  async markets(shopId: number) {
    return (await this.store.listMarkets(shopId)).map(indexMarket);
  }

  /**
   * The shop's customers again (a write changed them), read in pages a turn apart: 200,000 of them
   * read at once held every other shop's requests about 0.2 s, and their garbage as long again.
   */
  async customers(shopId: number) {
    const customers: Customer[] = [];
    for (let afterId = 0; ; ) {
      const page = await this.store.listCustomers(shopId, { afterId, limit: CUSTOMER_PAGE });
      for (const customer of page) customers.push(customer);
      if (page.length < CUSTOMER_PAGE) break;
      afterId = page[page.length - 1]!.id;
      await nextTurn();
    }
    return CustomerIndex.of(customers);
  }

  /** Compiles every stored ruleset; one that no longer compiles is logged and left out (a 404). */
  async rulesets(shopId: number) {
    const map = new Map<number, IndexedRuleset>();
    for (const ruleset of await this.store.listRulesets(shopId)) {
      try {
        const { id: _id, version: _v, created_at: _c, updated_at: _u, ...document } = ruleset;
        map.set(ruleset.id, {
          ruleset,
          compiled: compileRuleset(document),
          ruleJson: ruleset.rules.map((r) => JSON.stringify(r)),
        });
      } catch (error) {
        this.log?.error(
          { shopId, ruleset: ruleset.id, err: error },
          'stored ruleset does not compile; it is not served',
        );
      }
    }
    return map;
  }

  /**
   * Views and adds of the last 30 days per handle: the days before today from the sum the store
   * keeps of them (made and kept here when it is missing or of another window), today's summed now.
   */
  async eventCounts(shopId: number) {
    const now = Date.now();
    const [past, today] = await Promise.all([
      this.pastEventTotals(shopId, utcDay(now - 30 * DAY_MS), utcDay(now - DAY_MS)),
      this.store.sumEventCounts(shopId, utcDay(now)),
    ]);
    return EventCounts.sum(past, today);
  }

  private async pastEventTotals(shopId: number, sinceDay: number, throughDay: number) {
    const kept = await this.store.getKeptEventTotals(shopId);
    if (kept?.totals && kept.sinceDay === sinceDay && kept.throughDay === throughDay) return kept.totals;
    const totals = await this.store.sumEventCounts(shopId, sinceDay, throughDay);
    const keep = this.store
      .keepEventTotals(shopId, kept?.generation ?? null, sinceDay, throughDay, totals)
      .then(
        () => undefined,
        (error: unknown) => this.log?.warn({ shopId, err: error }, 'event totals not kept'),
      )
      .finally(() => this.keeping.delete(keep));
    this.keeping.add(keep);
    return totals;
  }

  /**
   * The shop's sales figures after its orders changed; `shop`, when the caller has just read it,
   * spares reading it again for its settings. Read and folded on the assembly thread when it is
   * ready: a large shop's lines are most of a second of this thread.
   */
  async sales(shopId: number, shop?: Shop | null) {
    if (shop === undefined) shop = await this.store.getShopById(shopId);
    const fold = { now: Date.now(), settings: trendingSettingsOf(shop) };
    const folding = this.foldOffThread?.(shopId, fold);
    const columns = folding
      ? await folding.catch((error: unknown) => {
          this.log?.warn({ shopId, err: error }, 'sales figures folded on the request thread');
          return null;
        })
      : null;
    return salesOf(columns ?? foldSales(await this.store.listSoldLines(shopId), fold.now, fold.settings), fold.now);
  }

  /** The sales figures' arrays of the lines, with the shop's trending settings. */
  private fold(lines: readonly SoldLine[], shop: Shop | null) {
    return foldSales(lines, Date.now(), trendingSettingsOf(shop));
  }
}

function trendingSettingsOf(shop: Shop | null): TrendingSettings {
  return {
    windowDays: shop?.settings.trending_window_days ?? DEFAULT_TRENDING.windowDays,
    halfLifeDays: shop?.settings.trending_half_life_days ?? DEFAULT_TRENDING.halfLifeDays,
    counts: shop?.settings.trending_counts ?? DEFAULT_TRENDING.counts,
  };
}
