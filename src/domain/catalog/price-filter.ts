import type { Money } from './money.js';

/** The price conditions of the list endpoints (docs/api.md, "Products"); every given bound must hold. */
export interface PriceFilter {
  lessThan?: Money;
  lessThanOrEqual?: Money;
  equal?: Money;
  greaterThan?: Money;
  greaterThanOrEqual?: Money;
}

export function hasPriceConditions(filter: PriceFilter): boolean {
  return (
    filter.lessThan !== undefined ||
    filter.lessThanOrEqual !== undefined ||
    filter.equal !== undefined ||
    filter.greaterThan !== undefined ||
    filter.greaterThanOrEqual !== undefined
  );
}

/** Whether one variant price satisfies every condition of the filter. */
export function priceMatches(price: Money, filter: PriceFilter): boolean {
  if (filter.lessThan !== undefined && !(price < filter.lessThan)) return false;
  if (filter.lessThanOrEqual !== undefined && !(price <= filter.lessThanOrEqual)) return false;
  if (filter.equal !== undefined && price !== filter.equal) return false;
  if (filter.greaterThan !== undefined && !(price > filter.greaterThan)) return false;
  if (filter.greaterThanOrEqual !== undefined && !(price >= filter.greaterThanOrEqual)) return false;
  return true;
}
