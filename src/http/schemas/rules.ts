import { Type } from '@sinclair/typebox';

/** Rulesets as stored and answered (docs/rules.md). */
const ProductRef = Type.Object({ product_id: Type.Integer(), variant_ids: Type.Array(Type.Integer()) });

export const ConditionSchema = Type.Object({
  type: Type.String(),
  operator: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
  products: Type.Optional(Type.Array(ProductRef)),
});

export const OutputSchema = Type.Object({
  type: Type.String(),
  products: Type.Optional(Type.Array(ProductRef)),
  collection_id: Type.Optional(Type.Integer()),
  value: Type.Optional(Type.String()),
  endpoint: Type.Optional(Type.String()),
});

export const RuleSchema = Type.Object({
  name: Type.Optional(Type.String()),
  enabled: Type.Optional(Type.Boolean()),
  logic: Type.Array(Type.Object({ rules: Type.Array(ConditionSchema) })),
  output: Type.Array(OutputSchema),
  exit_if_matched: Type.Boolean(),
});

export const RulesetSchema = Type.Object({
  id: Type.Integer(),
  version: Type.Integer({ description: 'raised by every change; part of the custom answer source' }),
  name: Type.String(),
  enabled: Type.Boolean(),
  filter_oos: Type.Boolean(),
  filter_input_products: Type.Boolean(),
  rules: Type.Array(RuleSchema),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const RulesetAnswer = Type.Object({ ruleset: RulesetSchema });

/** How each rule was decided, for previews. */
export const RuleTraceSchema = Type.Object({
  index: Type.Integer(),
  name: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([
    Type.Literal('matched'),
    Type.Literal('unmatched'),
    Type.Literal('unevaluated'),
    Type.Literal('disabled'),
  ]),
  exit_if_matched: Type.Boolean(),
  groups: Type.Array(
    Type.Object({
      result: Type.Union([Type.Boolean(), Type.Null()]),
      conditions: Type.Array(
        Type.Object({
          type: Type.String(),
          operator: Type.Union([Type.String(), Type.Null()]),
          value: Type.Unknown({ description: 'the condition value or products, as written' }),
          observed: Type.Unknown({
            description: 'what the request or the stored data held (a list: its first 100 values)',
          }),
          observed_count: Type.Optional(
            Type.Integer({ description: 'how many values were observed, when the list shows only the first 100' }),
          ),
          result: Type.Union([Type.Boolean(), Type.Null()], {
            description: 'null: not evaluated (an earlier condition of the group failed)',
          }),
        }),
      ),
    }),
  ),
});

/** `GET /admin/v1/rule-catalog`: what the console builds its forms from. */
export const RuleCatalogSchema = Type.Object({
  conditions: Type.Array(
    Type.Object({
      type: Type.String(),
      label: Type.String(),
      input: Type.String(),
      unit: Type.Optional(Type.Union([Type.Literal('money'), Type.Literal('count')])),
      operators: Type.Array(Type.Object({ code: Type.String(), label: Type.String(), value: Type.String() })),
    }),
  ),
  outputs: Type.Array(
    Type.Object({ type: Type.String(), label: Type.String(), value: Type.String(), description: Type.String() }),
  ),
  value_kinds: Type.Record(Type.String(), Type.String()),
  endpoints: Type.Array(Type.String()),
});
