import { Type } from '@sinclair/typebox';
import { RuleSchema, RuleTraceSchema } from './rules.js';

const customMetadata = {
  input_products: Type.Array(Type.Ref('Product')),
  matched_rules: Type.Array(RuleSchema),
  unmatched_rules: Type.Array(RuleSchema),
  unevaluated_rules: Type.Array(RuleSchema, { description: 'rules after a matched rule with exit_if_matched' }),
  filtered_oos_products: Type.Array(Type.Ref('Product')),
  filtered_input_products: Type.Array(Type.Ref('Product')),
  errors: Type.Array(
    Type.Object({
      code: Type.String(),
      message: Type.String(),
      rule_index: Type.Optional(Type.Integer()),
      id: Type.Optional(Type.Integer()),
    }),
  ),
  source: Type.String({
    description:
      'which answer this is: ruleset:<id>:v<version>, plus :arm:<name> ' +
      'when an experiment chose it (docs/attribution.md)',
    examples: ['ruleset:7:v3:arm:B'],
  }),
};

export const CustomResponse = Type.Object({
  data: Type.Array(Type.Ref('Product')),
  metadata: Type.Object(customMetadata),
});

/** A preview: the custom answer, plus how each rule was decided. */
export const PreviewResponse = Type.Object({
  data: Type.Array(Type.Ref('Product')),
  metadata: Type.Object(customMetadata),
  trace: Type.Array(RuleTraceSchema, {
    description: 'every rule in order, with each condition, what it observed and its result',
  }),
});
