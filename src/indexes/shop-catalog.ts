import { marketForCountry, marketForCurrency, priceInMarket } from '../domain/catalog/market.js';
import { formatMoney, parseMoney, type Money } from '../domain/catalog/money.js';
import type { Experiment } from '../domain/experiments/types.js';
import type { CompiledRuleset } from '../domain/rules/compile.js';
import type { Ruleset } from '../domain/rules/types.js';
import type { Shop } from '../domain/shop.js';
import { ProductCollections, type IndexedCollection } from './collection-index.js';
import type { IndexedMarket } from './indexed-market.js';
import { marketVariantStrings, type ProductJson } from './product-json.js';
import { collectionProducts, productsByHandle, productsByTag } from './product-lookups.js';
import { bestSellingFirst, type SalesStats } from './sales.js';
import type { CountsOnDemand } from './counts-on-demand.js';
import type { CustomerIndex } from './customer-index.js';
import type { EventCounts } from './event-counts.js';

/** What the hot paths need of a variant; prices as exact integers. */
export interface IndexedVariant {
  readonly id: number;
  readonly price: Money;
  readonly inStock: boolean;
}

/** A product as the read model keeps it: the attributes rules and lists read, and its JSON pieces. */
export interface IndexedProduct {
  readonly id: number;
  readonly handle: string;
  readonly title: string;
  /** The main image's URL (the admin insights show it), null without images. */
  readonly image: string | null;
  readonly vendor: string;
  readonly productType: string;
  /** Tags as given, and lower-cased for matching. */
  readonly tags: readonly string[];
  readonly tagsLower: readonly string[];
  readonly listable: boolean;
  readonly inStock: boolean;
  /** Made on each read (the read model keeps variants in arrays of a page): `variantCount` costs nothing. */
  readonly variants: readonly IndexedVariant[];
  readonly variantCount: number;
  readonly json: ProductJson;
  /** The length of its answer bytes as memory keeps them (what the memory budget counts). */
  readonly storedLength: number;
  /** What its page holds once for all of its products (the memory budget counts it once a page). */
  readonly sharedText: SharedText;
}

/** A page's vendors, product types and lists of tags, and their estimated bytes. */
export interface SharedText {
  readonly bytes: number;
}

/** A product's variants as a market shows them: JSON strings and exact prices. */
export interface MarketVariants {
  readonly strings: readonly string[];
  readonly prices: readonly Money[];
}

/** A stored ruleset with its compiled evaluator and each rule pre-serialized for metadata. */
export interface IndexedRuleset {
  readonly ruleset: Ruleset;
  readonly compiled: CompiledRuleset;
  readonly ruleJson: readonly string[];
}

/**
 * One immutable generation of a shop's read model. Writers build a new generation and swap it
 * in, so a request sees one consistent catalog from start to end.
 */
export class ShopCatalog {
  private handles: ReadonlyMap<string, IndexedProduct> | null = null;
  private tagged: ReadonlyMap<string, readonly IndexedProduct[]> | null = null;
  private members: ReadonlyMap<number, readonly IndexedProduct[]> | null = null;
  private productCollections: ProductCollections | null = null;
  private readonly memos = new Map<string, unknown>();
  private readonly requestMemos = new Map<string, unknown>();
  private readonly marketVariants = new Map<number, Map<number, MarketVariants>>();
  private variants: Map<number, IndexedProduct> | null = null;

  constructor(
    readonly shop: Shop,
    readonly version: number,
    readonly products: ReadonlyMap<number, IndexedProduct>,
    readonly collections: ReadonlyMap<number, IndexedCollection>,
    readonly markets: readonly IndexedMarket[],
    readonly customers: CustomerIndex,
    readonly rulesets: ReadonlyMap<number, IndexedRuleset>,
    readonly sales: SalesStats,
    /** Views and adds per handle over the last 30 days (from the event counts), read when first asked for. */
    readonly eventCountsOnDemand: CountsOnDemand,
    /** Every experiment of the shop, running and stopped: they route ruleset requests and tracked sources. */
    readonly experiments: readonly Experiment[] = [],
  ) {}

  /*
   * The lookups below are made on first use, not at the load: a shop of the long tail is loaded
   * for one or two answers, which mostly need one of them or none. Made at every load, they were 4%
   * of the server's CPU under `npm run bench:tenants` and 137 bytes a product of what a load kept
   * (docs/scaling.md, "What a load leaves to the collector"). A generation with the same products
   * (an event count, a ruleset saved) takes them over.
   */

  /** Products by handle. */
  get byHandle(): ReadonlyMap<string, IndexedProduct> {
    this.handles ??= productsByHandle(this.products.values());
    return this.handles;
  }

  /** Products by lower-cased tag, in id order. */
  get byTag(): ReadonlyMap<string, readonly IndexedProduct[]> {
    this.tagged ??= productsByTag(this.products.values());
    return this.tagged;
  }

  /** Each collection's products in the catalog, in the collection's order. */
  get collectionMembers(): ReadonlyMap<number, readonly IndexedProduct[]> {
    this.members ??= collectionProducts(this.collections.values(), this.products);
    return this.members;
  }

  /** The collections of each product. */
  get collectionsByProduct(): ProductCollections {
    this.productCollections ??= new ProductCollections(this.collections.values(), (id) => this.products.has(id));
    return this.productCollections;
  }

  /**
   * The product of each variant id, made on first use: only cart and variant inputs ask, and a
   * map of every variant was 150 bytes a product of every resident shop.
   */
  get byVariant(): ReadonlyMap<number, IndexedProduct> {
    if (this.variants) return this.variants;
    const map = new Map<number, IndexedProduct>();
    for (const product of this.products.values()) for (const variant of product.variants) map.set(variant.id, product);
    this.variants = map;
    return map;
  }

  /**
   * Views and adds per handle over the last 30 days, once read (`eventCountsOnDemand.get()`): a
   * caller that has not awaited them is a mistake, not a shop without views.
   */
  get eventCounts(): EventCounts {
    const counts = this.eventCountsOnDemand.now;
    if (!counts) throw new Error('event counts asked for before they were read (await eventCountsOnDemand.get())');
    return counts;
  }

  /** A value derived from this generation, computed on first use (search index, profiles, rates). */
  memo<T>(key: string, build: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const value = build();
    this.memos.set(key, value);
    return value;
  }

  /** The same for keys made from request parameters: bounded, so callers cannot grow it without limit. */
  memoForRequest<T>(key: string, build: () => T): T {
    if (this.requestMemos.has(key)) return this.requestMemos.get(key) as T;
    const value = build();
    if (this.requestMemos.size < 1000) this.requestMemos.set(key, value);
    return value;
  }

  /** Products carrying a tag (case-insensitive), best sellers of the last 90 days first, then by id. */
  bestSellersTagged(tag: string): readonly IndexedProduct[] {
    const key = tag.toLowerCase();
    return this.memoForRequest(`tag:${key}`, () => [...(this.byTag.get(key) ?? [])].sort(bestSellingFirst(this.sales)));
  }

  /** The market that prices a country, or null (base prices, whole catalog). */
  marketFor(countryCode: string): IndexedMarket | null {
    const market = marketForCountry(
      this.markets.map((m) => m.market),
      countryCode,
    );
    return market ? (this.markets.find((m) => m.market.id === market.id) ?? null) : null;
  }

  /** The first active market selling in a currency, or null (base prices, whole catalog). */
  marketForCurrency(currency: string): IndexedMarket | null {
    const market = marketForCurrency(
      this.markets.map((m) => m.market),
      currency,
    );
    return market ? (this.markets.find((m) => m.market.id === market.id) ?? null) : null;
  }

  /** A product's variants priced for a market, made on first use and kept with this generation. */
  variantsInMarket(product: IndexedProduct, market: IndexedMarket): MarketVariants {
    let byProduct = this.marketVariants.get(market.market.id);
    if (!byProduct) {
      byProduct = new Map();
      this.marketVariants.set(market.market.id, byProduct);
    }
    let variants = byProduct.get(product.id);
    if (!variants) {
      const strings = marketVariantStrings(product.json, market.market, market.fixed);
      const prices = product.variants.map((v) => {
        const price = priceInMarket(
          { id: v.id, price: formatMoney(v.price), compare_at_price: null },
          market.market,
          market.fixed,
        ).price;
        return parseMoney(price) ?? v.price;
      });
      variants = { strings, prices };
      byProduct.set(product.id, variants);
    }
    return variants;
  }

  /** Same data, newer parts: the unchanged products are shared, not copied. */
  with(
    parts: Partial<
      Pick<
        ShopCatalog,
        | 'shop'
        | 'version'
        | 'products'
        | 'collections'
        | 'markets'
        | 'customers'
        | 'rulesets'
        | 'sales'
        | 'eventCounts'
        | 'experiments'
      >
    >,
  ): ShopCatalog {
    const next = new ShopCatalog(
      parts.shop ?? this.shop,
      parts.version ?? this.version,
      parts.products ?? this.products,
      parts.collections ?? this.collections,
      parts.markets ?? this.markets,
      parts.customers ?? this.customers,
      parts.rulesets ?? this.rulesets,
      parts.sales ?? this.sales,
      parts.eventCounts ? this.eventCountsOnDemand.withCounts(parts.eventCounts) : this.eventCountsOnDemand,
      parts.experiments ?? this.experiments,
    );
    // A ruleset or setting saved leaves the products as they were: what is made from them alone carries over.
    if (next.products === this.products) {
      for (const key of PRODUCT_MEMOS) if (this.memos.has(key)) next.memos.set(key, this.memos.get(key));
      next.handles = this.handles;
      next.tagged = this.tagged;
      if (next.collections === this.collections) {
        next.members = this.members;
        next.productCollections = this.productCollections;
      }
    }
    return next;
  }
}

/** Memos made from the products alone (`memo(key, …)` keys): a new generation with the same products keeps them. */
const PRODUCT_MEMOS = ['search-index', 'inventory-items'];
