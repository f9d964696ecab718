import { Type } from '@sinclair/typebox';
import { CommonQuery, idListParam, KeyParam, limitParam } from './common.js';

const text = (description: string, examples?: string[]) => Type.Optional(Type.String({ description, ...(examples ? { examples } : {}) }));

/** The custom endpoint's query (seed §1); all strings, parsed in services/recommendations/params.ts. */
export const CustomQuery = Type.Object({
  ...KeyParam,
  shop_product_ids: idListParam('input products; enables product-level rules'),
  shop_variant_ids: idListParam('input variants; enables variant-level rules'),
  shop_customer_id: text('storefront customer id (customer, customer_tag, customer_purchased rules)'),
  cart_subtotal: text('cart total, a decimal amount', ['49.90']),
  cart_line_count: text('lines in the cart (one per variant)', ['2']),
  cart_item_count: text('items in the cart', ['3']),
  time: text('the visitor\'s current time: unix seconds or milliseconds, RFC 3339 or RFC 2822; default now', ['2026-12-24T18:00:00-05:00']),
  uuid: text('client-made session UUID'),
  url: text('page URL, matched by url rules'),
  filter_oos: text('yes / no: overrides the ruleset\'s out-of-stock setting'),
  ...CommonQuery,
  ...limitParam(5, 100),
});

const RuleSchema = Type.Object({
  name: Type.Optional(Type.String()),
  enabled: Type.Optional(Type.Boolean()),
  logic: Type.Array(Type.Object({ rules: Type.Array(Type.Object({ type: Type.String(), operator: Type.Optional(Type.String()), value: Type.Optional(Type.String()), products: Type.Optional(Type.Array(Type.Any())) })) })),
  output: Type.Array(Type.Object({ type: Type.String() }, { additionalProperties: true })),
  exit_if_matched: Type.Boolean(),
});

export const CustomResponse = Type.Object({
  data: Type.Array(Type.Ref('Product')),
  metadata: Type.Object({
    input_products: Type.Array(Type.Ref('Product')),
    matched_rules: Type.Array(RuleSchema),
    unmatched_rules: Type.Array(RuleSchema),
    unevaluated_rules: Type.Array(RuleSchema, { description: 'rules after a matched rule with exit_if_matched' }),
    filtered_oos_products: Type.Array(Type.Ref('Product')),
    filtered_input_products: Type.Array(Type.Ref('Product')),
    errors: Type.Array(Type.Object({ code: Type.String(), message: Type.String(), rule_index: Type.Optional(Type.Integer()), id: Type.Optional(Type.Integer()) })),
    source: Type.String({ description: 'which answer this is: ruleset:<id>:v<version>, plus :arm:<name> when an experiment chose it (docs/attribution.md)', examples: ['ruleset:7:v3:arm:B'] }),
  }),
});
