import { describe, expect, it } from 'vitest';
import { marketForCountry, priceInMarket, type Market } from '../../../src/domain/catalog/market.js';
import { isListable, isProductInStock, isVariantInStock } from '../../../src/domain/catalog/product.js';
import { priceMatches } from '../../../src/domain/catalog/price-filter.js';

const market = (id: number, position: number, countries: string[], extra: Partial<Market> = {}): Market => ({
  id,
  name: `m${id}`,
  position,
  active: true,
  countries,
  currency: 'EUR',
  price_adjustment_percent: 0,
  fixed_prices: [],
  product_ids: null,
  ...extra,
});

describe('markets', () => {
  it('picks the first active market by position containing the country', () => {
    const markets = [market(1, 3, ['DE']), market(2, 1, ['DE', 'FR'], { active: false }), market(3, 2, ['DE'])];
    expect(marketForCountry(markets, 'de')?.id).toBe(3);
    expect(marketForCountry(markets, 'FR')).toBeNull();
    expect(marketForCountry([], 'DE')).toBeNull();
  });

  it('prices by fixed price first, else by the percentage', () => {
    const m = market(1, 1, ['DE'], {
      price_adjustment_percent: 20,
      fixed_prices: [{ variant_id: 7, price: '1.00', compare_at_price: null }],
    });
    expect(priceInMarket({ id: 7, price: '50.00', compare_at_price: '60.00' }, m)).toEqual({
      price: '1.00',
      compare_at_price: null,
    });
    expect(priceInMarket({ id: 8, price: '50.00', compare_at_price: '60.00' }, m)).toEqual({
      price: '60.00',
      compare_at_price: '72.00',
    });
    expect(priceInMarket({ id: 8, price: '50.00', compare_at_price: null }, market(2, 1, ['DE']))).toEqual({
      price: '50.00',
      compare_at_price: null,
    });
  });
});

describe('stock and visibility', () => {
  it.each([
    [{ inventory_management: 'shop', inventory_policy: 'deny', inventory_quantity: 0 }, false],
    [{ inventory_management: 'shop', inventory_policy: 'deny', inventory_quantity: -4 }, false],
    [{ inventory_management: 'shop', inventory_policy: 'deny', inventory_quantity: 1 }, true],
    [{ inventory_management: 'shop', inventory_policy: 'continue', inventory_quantity: 0 }, true],
    [{ inventory_management: null, inventory_policy: 'deny', inventory_quantity: 0 }, true],
    [{ inventory_management: '', inventory_policy: 'deny', inventory_quantity: 0 }, true],
  ])('variant %j in stock: %s', (variant, expected) => expect(isVariantInStock(variant)).toBe(expected));

  it('a product is out of stock only when every variant is', () => {
    const out = { inventory_management: 'shop', inventory_policy: 'deny', inventory_quantity: 0 };
    expect(isProductInStock({ variants: [out, { ...out, inventory_quantity: 1 }] as never })).toBe(true);
    expect(isProductInStock({ variants: [out, out] as never })).toBe(false);
  });

  it('lists only published, active, not excluded products', () => {
    const base = { published_at: '2026-01-01T00:00:00Z', status: 'active', tags: 'a, b' };
    expect(isListable(base)).toBe(true);
    expect(isListable({ ...base, published_at: null })).toBe(false);
    expect(isListable({ ...base, status: 'draft' })).toBe(false);
    expect(isListable({ ...base, tags: 'x, EXCLUDE_REBOUND ' })).toBe(false);
    expect(isListable({ ...base, tags: 'exclude_rebound_not' })).toBe(true);
  });

  it('price conditions must all hold for one price', () => {
    expect(priceMatches(100, { lessThan: 100 })).toBe(false);
    expect(priceMatches(100, { lessThanOrEqual: 100, greaterThanOrEqual: 100, equal: 100 })).toBe(true);
    expect(priceMatches(100, { greaterThan: 50, lessThan: 99 })).toBe(false);
  });
});
