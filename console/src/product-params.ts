import type { ProductRef } from './types.js';

/** Chosen products as a request's parameters: their ids, and the variants chosen of them; none when empty. */
export function productParams(products: readonly ProductRef[]): Record<string, string> {
  const params: Record<string, string> = {};
  const variantIds = products.flatMap((p) => p.variant_ids ?? []);
  if (products.length > 0) params.shop_product_ids = products.map((p) => p.product_id).join(',');
  if (variantIds.length > 0) params.shop_variant_ids = variantIds.join(',');
  return params;
}
