import type { PriceFilter } from '../../domain/catalog/price-filter.js';

/** The common parameters of every product answer (product.md §2), already parsed. */
export interface CommonOptions {
  pretty: boolean;
  metafields: boolean;
  variantMetafields: boolean;
  bustCache: boolean;
  limit: number;
  countryCode: string | null;
}

/** Common parameters plus the filters of the list family (product.md §3). */
export interface ListOptions extends CommonOptions {
  filterOos: boolean;
  unsetVariants: boolean;
  price: PriceFilter;
}
