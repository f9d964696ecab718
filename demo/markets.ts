import type { MarketInput, ProductInput } from '../src/domain/inputs/catalog.js';
import { parseMoney } from '../src/domain/catalog/money.js';
import { money } from './format.js';
import { ID_BASE } from './ids.js';
import type { Random } from './random.js';

const EUROPE = ['DE', 'FR', 'NL', 'ES', 'IT', 'AT', 'BE', 'IE'];

/** Europe (EUR, +8 %, ~80 % of the catalog, a few fixed prices) and Canada (CAD, +25 %, everything). */
export function generateMarkets(rng: Random, products: ProductInput[]): MarketInput[] {
  const sold = products.filter(() => rng.chance(0.8));
  const fixed = rng
    .sample(
      sold.flatMap((p) => p.variants),
      20,
    )
    .sort((a, b) => a.id - b.id)
    .map((v) => ({
      variant_id: v.id,
      price: euroPrice(v.price),
      compare_at_price: v.compare_at_price ? euroPrice(v.compare_at_price) : null,
    }));
  return [
    {
      id: ID_BASE.market + 1,
      name: 'Europe',
      position: 1,
      active: true,
      countries: EUROPE,
      currency: 'EUR',
      price_adjustment_percent: 8,
      fixed_prices: fixed,
      product_ids: sold.map((p) => p.id),
    },
    {
      id: ID_BASE.market + 2,
      name: 'Canada',
      position: 2,
      active: true,
      countries: ['CA'],
      currency: 'CAD',
      price_adjustment_percent: 25,
      fixed_prices: [],
      product_ids: null,
    },
  ];
}

/** A hand-set euro price: +8 %, then rounded to a whole euro ending in .95. */
function euroPrice(price: string): string {
  const units = parseMoney(price) ?? 0;
  const euros = Math.max(1, Math.round((units * 1.08) / 10_000));
  return money(euros * 100 - 5);
}
