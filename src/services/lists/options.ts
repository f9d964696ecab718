import type { PriceFilter } from '../../domain/catalog/price-filter.js';
import { priceFilterOf } from '../../domain/params/common.js';
import type { SharedListParams } from './sources/types.js';

/** How a list answer is chosen, from its decoded parameters (rendering options stay with HTTP). */
export interface ListOptions {
  limit: number;
  countryCode: string | null;
  /** The deprecated presentment_prices: a currency whose first active market prices the answer. */
  currency: string | null;
  filterOos: boolean;
  unsetVariants: boolean;
  price: PriceFilter;
}

export function listOptions(params: SharedListParams): ListOptions {
  return {
    limit: params.limit,
    countryCode: params.country_code,
    currency: params.presentment_prices,
    filterOos: params.filter_oos,
    unsetVariants: params.unset_variants,
    price: priceFilterOf(params),
  };
}
