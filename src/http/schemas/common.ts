import { Type, type TProperties } from '@sinclair/typebox';

/**
 * Query parameters are declared as strings (the seed types them so) and parsed once in
 * http/params.ts, which gives each failure a sentence naming the parameter.
 */
const text = (description: string, examples?: string[]) => Type.Optional(Type.String({ description, ...(examples ? { examples } : {}) }));
const yesNo = (description: string) => text(`${description} (yes or no)`, ['yes']);

export const KeyParam = { key: text('API key (or the X-Api-Key header)') };

export const CommonQuery = {
  format: text('pretty: 2-space indented JSON', ['pretty']),
  metafields: yesNo('add product metafields'),
  variant_metafields: yesNo('add variant metafields'),
  bust_cache: yesNo('recompute instead of serving the cached answer'),
  country_code: text('ISO 3166-1 alpha-2: prices and catalog of the first active market for the country; needs the read_markets scope', ['DE']),
} satisfies TProperties;

export const limitParam = (fallback: number, max: number) => ({ limit: text(`maximum number of products, 1-${max}, default ${fallback}`, [String(fallback)]) });

export const ListFilterQuery = {
  filter_oos: yesNo('drop out-of-stock products; default yes'),
  unset_variants: yesNo('remove variants that fail the price conditions'),
  any_variant_price_less_than: text('some variant price < value (decimal)'),
  any_variant_price_less_than_or_equal_to: text('some variant price <= value'),
  any_variant_price_equal_to: text('some variant price = value'),
  variant_price_greater_than: text('some variant price > value'),
  variant_price_greater_than_or_equal_to: text('some variant price >= value'),
} satisfies TProperties;

export const idListParam = (description: string) => text(`comma-separated positive integer ids (at most 250); ${description}`, ['1,2,3']);
