import { Type } from '@sinclair/typebox';

const RuleSchema = Type.Object({
  name: Type.Optional(Type.String()),
  enabled: Type.Optional(Type.Boolean()),
  logic: Type.Array(
    Type.Object({
      rules: Type.Array(
        Type.Object({
          type: Type.String(),
          operator: Type.Optional(Type.String()),
          value: Type.Optional(Type.String()),
          products: Type.Optional(Type.Array(Type.Any())),
        }),
      ),
    }),
  ),
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
    errors: Type.Array(
      Type.Object({ code: Type.String(), message: Type.String(), rule_index: Type.Optional(Type.Integer()), id: Type.Optional(Type.Integer()) }),
    ),
    source: Type.String({
      description: 'which answer this is: ruleset:<id>:v<version>, plus :arm:<name> when an experiment chose it (docs/attribution.md)',
      examples: ['ruleset:7:v3:arm:B'],
    }),
  }),
});
