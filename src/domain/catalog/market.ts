import { adjustByPercent, formatMoney, parseMoney } from './money.js';
import type { Variant } from './product.js';

/** A market as stored (docs/api.md, "Markets"). */
export interface Market {
  id: number;
  name: string;
  position: number;
  active: boolean;
  countries: string[]; // upper-case ISO 3166-1 alpha-2
  currency: string;
  price_adjustment_percent: number;
  fixed_prices: FixedPrice[];
  /** Products sold in the market; null means the whole catalog. */
  product_ids: number[] | null;
}

export interface FixedPrice {
  variant_id: number;
  price: string;
  compare_at_price: string | null;
}

/** The first active market, by position, that contains the country; null when none does. */
export function marketForCountry(markets: readonly Market[], countryCode: string): Market | null {
  const code = countryCode.toUpperCase();
  let best: Market | null = null;
  for (const market of markets) {
    if (!market.active || !market.countries.includes(code)) continue;
    if (
      best === null ||
      market.position < best.position ||
      (market.position === best.position && market.id < best.id)
    ) {
      best = market;
    }
  }
  return best;
}

/**
 * The first active market, by position, that sells in the currency
 * (the deprecated presentment_prices); null when none does.
 */
export function marketForCurrency(markets: readonly Market[], currency: string): Market | null {
  const code = currency.toUpperCase();
  let best: Market | null = null;
  for (const market of markets) {
    if (!market.active || market.currency.toUpperCase() !== code) continue;
    if (best === null || market.position < best.position || (market.position === best.position && market.id < best.id))
      best = market;
  }
  return best;
}

/** A variant's price and compare-at price in a market: a fixed price wins over the percentage. */
export function priceInMarket(
  variant: Pick<Variant, 'id' | 'price' | 'compare_at_price'>,
  market: Pick<Market, 'fixed_prices' | 'price_adjustment_percent'>,
  fixedByVariant?: ReadonlyMap<number, FixedPrice>,
): { price: string; compare_at_price: string | null } {
  const fixed = fixedByVariant
    ? fixedByVariant.get(variant.id)
    : market.fixed_prices.find((f) => f.variant_id === variant.id);
  if (fixed) return { price: fixed.price, compare_at_price: fixed.compare_at_price };
  return {
    price: adjust(variant.price, market.price_adjustment_percent),
    compare_at_price:
      variant.compare_at_price === null ? null : adjust(variant.compare_at_price, market.price_adjustment_percent),
  };
}

function adjust(price: string, percent: number): string {
  const money = parseMoney(price);
  if (money === null || percent === 0) return price;
  return formatMoney(adjustByPercent(money, percent));
}
