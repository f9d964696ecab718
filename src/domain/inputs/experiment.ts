import { Type, type Static } from '@sinclair/typebox';
import { DisplayName } from './name.js';

const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const ArmName = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[^\\u0000-\\u001f]+$',
  patternMessage: 'must not hold control characters',
  description: 'shown in metadata.source as :arm:<name>',
});

/** `POST /admin/v1/shops/{handle}/experiments` (docs/attribution.md, "Experiments"). */
export const ExperimentInput = Type.Object(
  {
    name: DisplayName(),
    ruleset_id: Id,
    arms: Type.Array(
      Type.Object(
        {
          name: ArmName,
          ruleset_id: Type.Union([Id, Type.Null()], {
            description: 'the ruleset serving the arm; null is the empty control (no products)',
          }),
          weight: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'relative share of visitors' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 2, maxItems: 10 },
    ),
  },
  { additionalProperties: false },
);
export type ExperimentInput = Static<typeof ExperimentInput>;

/** `POST …/experiments/{id}/stop`. */
export const StopExperimentInput = Type.Object(
  {
    winner: Type.Union([ArmName, Type.Null()], {
      description: 'the arm whose ruleset serves from now on; null keeps the ruleset itself',
    }),
  },
  { additionalProperties: false },
);
export type StopExperimentInput = Static<typeof StopExperimentInput>;
