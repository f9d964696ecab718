import { Type } from '@sinclair/typebox';

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);

export const ExperimentSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  ruleset_id: Type.Integer(),
  arms: Type.Array(
    Type.Object({ name: Type.String(), ruleset_id: Type.Union([Type.Integer(), Type.Null()]), weight: Type.Number() }),
  ),
  status: Type.Union([Type.Literal('running'), Type.Literal('stopped')]),
  winner: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  stopped_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const ExperimentAnswer = Type.Object({ experiment: ExperimentSchema });

const Estimate = Type.Object({
  value: Nullable(Type.Number()),
  low: Nullable(Type.Number({ description: 'lower end of the 95% interval; null when it cannot be computed yet' })),
  high: Nullable(Type.Number({ description: 'upper end of the 95% interval' })),
});

export const ResultsAnswer = Type.Object({
  experiment: ExperimentSchema,
  arms: Type.Array(
    Type.Object({
      name: Type.String(),
      visitors: Type.Integer({ description: 'distinct visitors (uuid, else customer) the arm served' }),
      impressions: Type.Integer(),
      clicks: Type.Integer(),
      add_to_carts: Type.Integer(),
      orders: Type.Integer({ description: 'orders with at least one line attributed to the arm' }),
      revenue: Type.Number({ description: "attributed revenue in the shop's currency" }),
      ctr: Estimate,
      add_to_cart_rate: Estimate,
      conversion: Estimate,
      revenue_per_visitor: Estimate,
      p_beats_first: Type.Union([
        Type.Object({ conversion: Nullable(Type.Number()), revenue_per_visitor: Nullable(Type.Number()) }),
        Type.Null(),
      ]),
    }),
  ),
});

export const SeriesAnswer = Type.Object({
  experiment: ExperimentSchema,
  arms: Type.Array(Type.String()),
  days: Type.Array(
    Type.Object({
      day: Type.String({ format: 'date' }),
      arms: Type.Array(
        Type.Object({
          visitors: Type.Integer(),
          orders: Type.Integer(),
          revenue: Type.Number(),
          conversion: Nullable(Type.Number()),
          revenue_per_visitor: Nullable(Type.Number()),
        }),
      ),
    }),
    { description: 'cumulative figures at the end of each UTC day' },
  ),
});

const Figures = {
  impressions: Type.Integer(),
  clicks: Type.Integer(),
  add_to_carts: Type.Integer(),
  orders: Type.Integer({
    description: 'orders with a line attributed to it (an order with lines from two sources counts under each)',
  }),
  revenue: Type.Number(),
};

export const AttributionAnswer = Type.Object({
  days: Type.Integer(),
  currency: Type.String(),
  totals: Type.Object(Figures),
  rulesets: Type.Array(
    Type.Object({ ruleset_id: Type.Integer(), name: Type.Union([Type.String(), Type.Null()]), ...Figures }),
  ),
  lists: Type.Array(Type.Object({ list: Type.String(), ...Figures })),
  other: Type.Object(Figures),
  widgets: Type.Array(
    Type.Object({ widget_id: Type.Integer(), name: Type.Union([Type.String(), Type.Null()]), ...Figures }),
    {
      description: 'per stored widget: the same events again, already counted in rulesets and lists, never in totals',
    },
  ),
});
