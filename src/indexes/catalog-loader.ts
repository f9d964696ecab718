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
import type { Shop } from '../domain/shop.js';
import { DEFAULT_TRENDING } from '../domain/ranking/trending.js';
import { utcDay } from '../domain/events.js';
import { indexCollection } from './collection-index.js';
import { CustomerIndex } from './customer-index.js';
import { DAY_MS, foldSales, salesOf } from './sales.js';
import { indexProducts, packServed, unpackServed, type PackedProducts } from './product-serving.js';
import { indexMarket, ShopCatalog, type IndexedProduct, type IndexedRuleset } from './shop-catalog.js';
import {
  decodeSnapshot,
  encodeSnapshot,
  joinPages,
  SNAPSHOT_FORMAT,
  snapshotBytes,
  type LoadParts,
} from './shop-snapshot.js';

/** What a shop's load reads: the ports of every part of the read model. */
export type LoaderStore = ShopStore &
  CatalogStore &
  ServingStore &
  SnapshotStore &
  CommerceStore &
  RulesetStore &
  EventStore &
  ExperimentStore;

/**
 * Products read per query when a shop's catalog is built. Each page is followed by a turn of the
 * event loop: a large shop's load must not hold up the requests of the shops already in memory.
 */
const PRODUCT_PAGE = 1000;

/**
 * The first page of a load is read here, and this small: most shops fit in it, and reading a
 * few hundred stored rows costs about a millisecond, less than the hop to the assembly thread.
 */
const FIRST_PAGE = 250;

/**
 * Products a load reads here, a page of FIRST_PAGE at a time with a turn of the event loop
 * between pages, before it asks the assembly thread for the rest: a 1,000-product shop read here
 * took 9 ms against 22 through the thread, and a node whose shops are all this small never starts
 * that thread (an isolate of about 20 MB, 65 ms or more to start).
 */
const LOCAL_PRODUCTS = 1250;

/**
 * A snapshot larger than this is not written (a shop of few products and a long order history):
 * it is read in one stretch of the event loop, where a load of parts takes several turns. The
 * multi-tenant benchmark's 150-product shop's is 0.2 MB, its 1,000-product shop's 1.3 MB.
 */
const MAX_SNAPSHOT_BYTES = 4 * 1024 * 1024;

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Where a page of a shop's products starts (after the product of that id) and how many it holds. */
type PageRange = { afterId: number; limit: number };

/** A shop's products as a load reads them, and their packed rows when a snapshot can keep them. */
type ReadProducts = { products: Map<number, IndexedProduct>; packed: PackedProducts | null };

/**
 * Reads a page of a shop's products from the store in another thread, packed for `unpackServed`;
 * null when that thread is not ready, and the load reads the page itself.
 */
export type ServedPageReader = (shopId: number, page: PageRange) => Promise<PackedProducts> | null;

/** Reads the parts of a shop's read model from the store; the index decides when. */
export class CatalogLoader {
  /** Loads that read the shop's snapshot (since start); the others read it part by part. */
  snapshotLoads = 0;
  /** Snapshots being written. */
  private readonly writing = new Set<Promise<unknown>>();
  private readonly readHere: (shopId: number, page: PageRange) => Promise<PackedProducts>;

  constructor(
    private readonly store: LoaderStore,
    private readonly log?: Logger,
    /** Where pages after the first are read and packed: the assembly thread, else this one. */
    private readonly readPage?: ServedPageReader,
    /** Products read here before the assembly thread is asked for the rest. */
    private readonly localProducts = LOCAL_PRODUCTS,
  ) {
    this.readHere = async (shopId, page) => packServed(await store.listServedProducts(shopId, page));
  }

  /**
   * A whole generation of the shop's catalog, or null when the shop does not exist: from its load
   * snapshot when one of its version is stored, else read part by part, and a snapshot written of
   * the parts afterwards (shops whose products are all read on this thread).
   */
  async full(shopId: number): Promise<ShopCatalog | null> {
    const shop = await this.store.getShopById(shopId);
    if (!shop) return null;
    const stored = await this.storedParts(shop);
    let products: Map<number, IndexedProduct>;
    let parts: Omit<LoadParts, 'products'>;
    if (stored) {
      this.snapshotLoads++;
      products = new Map();
      for (const product of unpackServed(stored.products)) products.set(product.id, product);
      parts = stored;
      await yieldTurn(); // half of the work behind, the sales figures ahead
    } else {
      // The store answers on this thread: read at once, the parts were one stretch of the event loop
      // (3 ms for a 150-product shop, 10 at p90) that every request of the shops already in memory
      // waited behind. In three turns, none waits for more than about a third of a load.
      const read = await this.readProducts(shopId, true);
      products = read.products;
      await yieldTurn();
      const [collections, markets, customers] = await Promise.all([
        this.store.listCollections(shopId),
        this.store.listMarkets(shopId),
        this.store.listCustomers(shopId),
      ]);
      await yieldTurn();
      parts = { collections, markets, customers, sales: this.fold(await this.store.listSoldLines(shopId), shop) };
      if (read.packed && !parts.sales.timeBound) this.keepSnapshot(shop, { ...parts, products: read.packed });
    }
    const [rulesets, eventCounts, experiments] = await Promise.all([
      this.rulesets(shopId),
      this.eventCounts(shopId),
      this.experiments(shopId),
    ]);
    return new ShopCatalog(
      shop,
      shop.data_version,
      products,
      new Map(parts.collections.map((c) => [c.id, indexCollection(c)])),
      parts.markets.map(indexMarket),
      new CustomerIndex(parts.customers),
      rulesets,
      salesOf(parts.sales, Date.now()),
      eventCounts,
      experiments,
    );
  }

  /** The parts of the shop's stored snapshot of its version; null when there is none, or it cannot be read. */
  private async storedParts(shop: Shop): Promise<LoadParts | null> {
    const body = await this.store.getShopSnapshot(shop.id, shop.data_version, SNAPSHOT_FORMAT);
    if (!body) return null;
    try {
      return decodeSnapshot(body);
    } catch (error) {
      this.log?.warn({ shopId: shop.id, err: error }, 'shop snapshot unreadable; the shop is read part by part');
      return null;
    }
  }

  /**
   * Writes the snapshot once this load is done (a turn later, off its path); a write that moved the
   * shop's version meanwhile leaves it unwritten. A failure costs only the next load's speed.
   */
  private keepSnapshot(shop: Shop, parts: LoadParts): void {
    if (snapshotBytes(parts) > MAX_SNAPSHOT_BYTES) return;
    const writing = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        const body = encodeSnapshot(parts);
        if (body.byteLength > MAX_SNAPSHOT_BYTES) return; // the estimate counts at least as much; a backstop
        return this.store.putShopSnapshot(shop.id, shop.data_version, SNAPSHOT_FORMAT, body);
      })
      .catch((error) => this.log?.warn({ shopId: shop.id, err: error }, 'shop snapshot not written'))
      .finally(() => this.writing.delete(writing));
    this.writing.add(writing);
  }

  /** Resolves once the snapshots being written now are written (or given up): before the store closes. */
  async snapshotsWritten(): Promise<void> {
    while (this.writing.size > 0) await Promise.all(this.writing);
  }

  /** The shop's experiments (routing of the custom endpoint reads them from memory). */
  experiments(shopId: number) {
    return this.store.listExperiments(shopId);
  }

  /** Every product of the shop (`readProducts`). */
  async products(shopId: number): Promise<Map<number, IndexedProduct>> {
    return (await this.readProducts(shopId, false)).products;
  }

  /**
   * Products a page at a time from their stored serving rows: bytes and small index fields, no
   * document parsed; the first page is read here, the others in the assembly thread when it is
   * ready, each asked for before the previous one is unpacked. A product without a current row
   * (written before the rows, or by an older serializer) is read from its document instead.
   * `packed`: every product's row in one packed page, for a snapshot, when the shop has fewer products
   * than a load reads here (`localProducts`) and all of their rows were current.
   */
  private async readProducts(shopId: number, forSnapshot: boolean): Promise<ReadProducts> {
    const products = new Map<number, IndexedProduct>();
    const pages: PackedProducts[] = [];
    let packable = forSnapshot;
    let limit = FIRST_PAGE;
    let asked = limit;
    let next: Promise<PackedProducts> | null = this.readHere(shopId, { afterId: 0, limit });
    while (next) {
      const page: PackedProducts = await next;
      const more = page.count >= limit && page.lastId !== null;
      // Without the thread every page is read here, and as small: a turn of the loop between each.
      const here = asked < this.localProducts || this.readPage === undefined;
      // A shop past the products read here keeps no snapshot, thread or not (MAX_SNAPSHOT_BYTES).
      packable &&= asked < this.localProducts || !more;
      limit = here ? FIRST_PAGE : PRODUCT_PAGE;
      asked += limit;
      next = more ? this.page(shopId, { afterId: page.lastId!, limit }, here) : null;
      // Awaited next turn; its failure is not unhandled meanwhile, nor when unpacking this page fails.
      next?.catch(() => undefined);
      packable &&= page.stale.length === 0;
      if (packable) pages.push(page);
      else pages.length = 0;
      for (const product of await this.unpack(shopId, page)) products.set(product.id, product);
    }
    return { products, packed: packable ? joinPages(pages) : null };
  }

  /**
   * A page after the first: from the assembly thread, which reads it while this thread unpacks the
   * previous one, or read here after a turn of the event loop (once that page is unpacked). No
   * turn before a thread's page: waiting for the thread is one, and an explicit one left the thread
   * idle while the rest of the load, queued meanwhile, held the loop.
   */
  private async page(shopId: number, page: PageRange, here: boolean): Promise<PackedProducts> {
    const threaded = here ? null : this.readPage?.(shopId, page);
    if (threaded) return threaded;
    await yieldTurn();
    return this.readHere(shopId, page);
  }

  async productsById(shopId: number, ids: number[]): Promise<IndexedProduct[]> {
    return this.unpack(shopId, packServed(await this.store.listServedProducts(shopId, { ids })));
  }

  private async unpack(shopId: number, page: PackedProducts): Promise<IndexedProduct[]> {
    const products = unpackServed(page);
    if (page.stale.length === 0) return products;
    products.push(...indexProducts(await this.store.listProducts(shopId, { ids: page.stale })));
    return products.sort((a, b) => a.id - b.id); // id order, as the store gives them
  }

  async collections(shopId: number) {
    return new Map((await this.store.listCollections(shopId)).map((c) => [c.id, indexCollection(c)]));
  }

  async markets(shopId: number) {
    return (await this.store.listMarkets(shopId)).map(indexMarket);
  }

  async customers(shopId: number) {
    return new CustomerIndex(await this.store.listCustomers(shopId));
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

  /** Views and adds of the last 30 days per handle. */
  async eventCounts(shopId: number) {
    const counts = new Map<string, { views: number; adds: number }>();
    for (const row of await this.store.listEventCounts(shopId, utcDay(Date.now() - 30 * DAY_MS))) {
      const c = counts.get(row.handle) ?? { views: 0, adds: 0 };
      c.views += row.views;
      c.adds += row.adds;
      counts.set(row.handle, c);
    }
    return counts;
  }

  /** The shop's sales figures; `shop`, when the caller has just read it, spares reading it again for its settings. */
  async sales(shopId: number, shop?: Shop | null) {
    if (shop === undefined) shop = await this.store.getShopById(shopId);
    return salesOf(this.fold(await this.store.listSoldLines(shopId), shop), Date.now());
  }

  /** The sales figures' arrays of the lines, with the shop's trending settings. */
  private fold(lines: readonly SoldLine[], shop: Shop | null) {
    return foldSales(lines, Date.now(), {
      windowDays: shop?.settings.trending_window_days ?? DEFAULT_TRENDING.windowDays,
      halfLifeDays: shop?.settings.trending_half_life_days ?? DEFAULT_TRENDING.halfLifeDays,
      counts: shop?.settings.trending_counts ?? DEFAULT_TRENDING.counts,
    });
  }
}
