/** Ruleset documents as stored and as echoed in the custom endpoint's metadata (docs/rules.md). */

export interface ProductRef {
  product_id: number;
  variant_ids: number[];
}

export interface Condition {
  type: string;
  operator?: string;
  value?: string;
  products?: ProductRef[];
}

export interface Output {
  type: string;
  products?: ProductRef[];
  collection_id?: number;
  value?: string;
  endpoint?: string;
}

export interface Rule {
  name?: string;
  enabled?: boolean;
  logic: { rules: Condition[] }[];
  output: Output[];
  exit_if_matched: boolean;
}

export interface RulesetDocument {
  name: string;
  enabled: boolean;
  filter_oos: boolean;
  filter_input_products: boolean;
  rules: Rule[];
}

export interface Ruleset extends RulesetDocument {
  id: number;
  version: number;
  created_at: string;
  updated_at: string;
}

/** What a request brings to the rules (the custom endpoint's parameters, parsed). */
export interface RuleRequest {
  productIds: readonly number[] | null;
  variantIds: readonly number[] | null;
  customerId: number | null;
  /** Money units (1/10,000). */
  cartSubtotal: number | null;
  cartItemCount: number | null;
  cartLineCount: number | null;
  /** Epoch milliseconds: the `time` parameter, or now. */
  time: number;
  url: string | null;
  countryCode: string | null;
}

/** An input product as conditions see it. */
export interface InputProduct {
  id: number;
  handle: string;
  productType: string;
  vendor: string;
  tags: readonly string[];
  collections: readonly number[];
  /** Variants of this product named in the request (shop_variant_ids). */
  requestedVariantIds: readonly number[];
}

/** Lookups the evaluator needs, provided by the caller from its read model. */
export interface RuleWorld {
  timezone: string;
  inputProducts: readonly InputProduct[];
  customerTags(customerId: number): readonly string[] | null;
  /** Products the customer bought (ids as keys); null for an unknown customer. */
  customerPurchased(customerId: number): ReadonlySet<number> | ReadonlyMap<number, unknown> | null;
}
