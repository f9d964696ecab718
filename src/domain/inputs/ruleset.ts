import { Type, type Static } from '@sinclair/typebox';
import { DisplayName } from './name.js';

const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const strict = { additionalProperties: false } as const;

export const ProductRefInput = Type.Object(
  {
    product_id: Id,
    variant_ids: Type.Optional(Type.Array(Id, { maxItems: 250 })),
  },
  strict,
);

export const ConditionInput = Type.Object(
  {
    type: Type.String({ description: 'condition type; see GET /admin/v1/rule-catalog' }),
    operator: Type.Optional(Type.String()),
    value: Type.Optional(Type.String({ maxLength: 10_000 })),
    products: Type.Optional(Type.Array(ProductRefInput, { maxItems: 250 })),
  },
  strict,
);

export const OutputInput = Type.Object(
  {
    type: Type.String({ description: 'output type; see GET /admin/v1/rule-catalog' }),
    products: Type.Optional(Type.Array(ProductRefInput, { maxItems: 250 })),
    collection_id: Type.Optional(Id),
    value: Type.Optional(Type.String({ maxLength: 10_000 })),
    endpoint: Type.Optional(Type.String({ maxLength: 2_000 })),
  },
  strict,
);

export const RuleInput = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    enabled: Type.Optional(Type.Boolean()),
    exit_if_matched: Type.Optional(Type.Boolean()),
    logic: Type.Optional(
      Type.Array(Type.Object({ rules: Type.Array(ConditionInput, { maxItems: 50 }) }, strict), { maxItems: 50 }),
    ),
    output: Type.Array(OutputInput, { maxItems: 50 }),
  },
  strict,
);

/** A ruleset document (docs/rules.md). Read-only fields a client echoes back are accepted and ignored. */
export const RulesetInput = Type.Object(
  {
    name: DisplayName(),
    enabled: Type.Optional(Type.Boolean()),
    filter_oos: Type.Optional(Type.Boolean()),
    filter_input_products: Type.Optional(Type.Boolean()),
    rules: Type.Array(RuleInput, { maxItems: 100 }),
    id: Type.Optional(Type.Integer()),
    version: Type.Optional(Type.Integer()),
    created_at: Type.Optional(Type.String()),
    updated_at: Type.Optional(Type.String()),
  },
  strict,
);
export type RulesetInput = Static<typeof RulesetInput>;
