/**
 * Wire shapes of the admin API the console reads (docs/rules.md and
 * docs/api.md, "Admin API"); type-only imports of the server's.
 */
import type { Metafield, Product, Variant } from '../../src/domain/catalog/product.js';
import type { RulesetInput } from '../../src/domain/inputs/ruleset.js';
import type { ValueKind } from '../../src/domain/rules/conditions/shared.js';
import type { RuleTrace } from '../../src/domain/rules/evaluate.js';
import type { publicShop } from '../../src/domain/shop.js';

export type { RuleTrace };

export type Shop = ReturnType<typeof publicShop>;

export interface Session {
  operator: boolean;
  shops: Shop[];
  /** The server can store a platform's or billing provider's token (REBOUND_SECRET_KEY is set). */
  can_store_tokens: boolean;
}

/** The document the admin API takes: the server's own input schema, so the two cannot drift apart. */
export type Ruleset = RulesetInput;
export type Rule = RulesetInput['rules'][number];
export type Condition = NonNullable<Rule['logic']>[number]['rules'][number];
export type Output = Rule['output'][number];
export type ProductRef = NonNullable<Condition['products']>[number];

export type { ValueKind };

export interface OperatorSpec {
  code: string;
  label: string;
  value: ValueKind;
}
export interface ConditionSpec {
  type: string;
  label: string;
  input: string;
  unit?: 'money' | 'count';
  operators: OperatorSpec[];
}
export interface OutputSpec {
  type: string;
  label: string;
  value: 'products' | 'collection' | 'tag_list' | 'endpoint' | 'none';
  description: string;
}
export interface RuleCatalog {
  conditions: ConditionSpec[];
  outputs: OutputSpec[];
  value_kinds: Record<string, string>;
  endpoints: string[];
}

/** Products as the admin API stores them and the public API returns them. */
export type { Metafield, Product, Variant };

export interface Collection {
  id: number;
  title: string;
  handle: string;
  products: { product_id: number; position: number }[];
}

export interface PreviewError {
  code: string;
  message: string;
  rule_index?: number;
  id?: number;
}

export interface PreviewAnswer {
  data: Product[];
  metadata: {
    input_products?: Product[];
    filtered_input_products?: number[];
    filtered_oos_products?: number[];
    unevaluated_rules?: number[];
    errors?: PreviewError[];
    [key: string]: unknown;
  };
  trace: RuleTrace[];
}

export interface Problem {
  path: string;
  message: string;
  index?: number;
}
