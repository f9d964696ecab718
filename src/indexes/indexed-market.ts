import type { FixedPrice, Market } from '../domain/catalog/market.js';

/** A market as the read model keeps it: its fixed prices by variant, and its products (null: all of them). */
export interface IndexedMarket {
  readonly market: Market;
  readonly fixed: ReadonlyMap<number, FixedPrice>;
  readonly catalog: ReadonlySet<number> | null;
}

/**
 * A market with its fixed prices by variant and its products, each made on first use: most
 * answers name no country or currency, and a shop of the long tail is loaded for an answer or two.
 * Made at every load, they were a twelfth of what a load kept past the young generation.
 */
class LazyMarket implements IndexedMarket {
  private fixedByVariant: ReadonlyMap<number, FixedPrice> | null = null;
  private products: ReadonlySet<number> | null | undefined;

  constructor(readonly market: Market) {}

  get fixed(): ReadonlyMap<number, FixedPrice> {
    this.fixedByVariant ??= new Map(this.market.fixed_prices.map((f) => [f.variant_id, f]));
    return this.fixedByVariant;
  }

  get catalog(): ReadonlySet<number> | null {
    if (this.products === undefined)
      this.products = this.market.product_ids === null ? null : new Set(this.market.product_ids);
    return this.products;
  }
}

export function indexMarket(market: Market): IndexedMarket {
  return new LazyMarket(market);
}
