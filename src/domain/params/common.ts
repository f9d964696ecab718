import type { PriceFilter } from '../catalog/price-filter.js';
import { countryCode, currencyCode, flag, format, limit, money } from './kinds.js';
import { unkeyed } from './param.js';
import { text } from './text-kinds.js';

/** The API key, read by authentication (also accepted as the X-Api-Key header); never part of a cache key. */
export const keyParam = {
  key: unkeyed(text('API key (or the X-Api-Key header)', { max: 200 })),
};

/** Proof that a storefront may name this customer, when the shop requires it; never part of a cache key. */
export const customerSigParam = {
  customer_sig: unkeyed(
    text(
      "hex HMAC-SHA256 of shop_customer_id with the shop's signing secret (shops that require customer signatures)",
      { max: 128 },
    ),
  ),
};

/** The common parameters of every product answer (docs/api.md, "Common parameters"). */
export const commonParams = {
  format: format(),
  metafields: flag('add product metafields'),
  variant_metafields: flag('add variant metafields'),
  bust_cache: unkeyed(flag('recompute instead of serving the cached answer')),
  country_code: countryCode(
    'ISO 3166-1 alpha-2: prices and catalog of the first active market for the country; needs the read_markets scope',
  ),
  presentment_prices: currencyCode(
    'deprecated, use country_code: prices of the first active market with this currency (none: base prices)',
  ),
};

/** The filters of the list family: stock and variant prices. */
export const listFilterParams = {
  filter_oos: flag('drop out-of-stock products', true),
  unset_variants: flag('remove variants that fail the price conditions'),
  any_variant_price_less_than: money('some variant price < value'),
  any_variant_price_less_than_or_equal_to: money('some variant price <= value'),
  any_variant_price_equal_to: money('some variant price = value'),
  variant_price_greater_than: money('some variant price > value'),
  variant_price_greater_than_or_equal_to: money('some variant price >= value'),
};

/** `limit` of the product answers: 1-100, default 5 (search: 1-50, default 10). */
export const limitParam = (fallback = 5, max = 100) => ({ limit: limit(fallback, max) });

/** The price conditions of decoded list filters. */
export function priceFilterOf(values: {
  any_variant_price_less_than: number | null;
  any_variant_price_less_than_or_equal_to: number | null;
  any_variant_price_equal_to: number | null;
  variant_price_greater_than: number | null;
  variant_price_greater_than_or_equal_to: number | null;
}): PriceFilter {
  const filter: PriceFilter = {};
  if (values.any_variant_price_less_than !== null) filter.lessThan = values.any_variant_price_less_than;
  if (values.any_variant_price_less_than_or_equal_to !== null)
    filter.lessThanOrEqual = values.any_variant_price_less_than_or_equal_to;
  if (values.any_variant_price_equal_to !== null) filter.equal = values.any_variant_price_equal_to;
  if (values.variant_price_greater_than !== null) filter.greaterThan = values.variant_price_greater_than;
  if (values.variant_price_greater_than_or_equal_to !== null)
    filter.greaterThanOrEqual = values.variant_price_greater_than_or_equal_to;
  return filter;
}
