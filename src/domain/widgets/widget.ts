import { Type, type Static } from '@sinclair/typebox';
import { DisplayName } from '../inputs/name.js';

/** Where on the storefront a merchant means to put the widget: a hint for the snippet and the console, not enforced. */
export const PLACEMENTS = ['product', 'cart', 'home', 'collection', 'thank_you', 'custom'] as const;

const FONT = 'must not hold ; { } < or >';
const Colour = Type.String({
  pattern: '^#[0-9A-Fa-f]{6}$',
  description: 'a #rrggbb colour',
  patternMessage: 'must be a colour written #rrggbb, such as #1a73e8',
});
const LIST_NAME = '^[a-z][a-z_]{0,62}$';

/** `POST/PUT /admin/v1/shops/{handle}/widgets[/{id}]` (docs/widget.md, "Widgets as data"). */
export const WidgetInput = Type.Object(
  {
    name: DisplayName(),
    placement: Type.Union(PLACEMENTS.map((p) => Type.Literal(p))),
    source: Type.Union([
      Type.Object(
        { ruleset_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          list: Type.String({
            pattern: LIST_NAME,
            patternMessage: 'must be the name of a list, in small letters and _, such as trending_products',
            description: 'a list under /api/v1/products/, e.g. trending_products',
          }),
          limit: Type.Integer({ minimum: 1, maximum: 100, description: 'how many products the list is asked for' }),
        },
        { additionalProperties: false },
      ),
    ]),
    title: Type.String({ maxLength: 200 }),
    layout: Type.Union([Type.Literal('grid'), Type.Literal('carousel')]),
    cards: Type.Integer({ minimum: 1, maximum: 12, description: 'how many product cards are shown' }),
    show: Type.Object(
      { price: Type.Boolean(), compare_at_price: Type.Boolean(), vendor: Type.Boolean(), add_to_cart: Type.Boolean() },
      { additionalProperties: false },
    ),
    style: Type.Object(
      {
        accent: Type.Union([Colour, Type.Null()], { description: "buttons and links; null follows the theme's" }),
        text: Type.Union([Colour, Type.Null()], { description: "text colour; null follows the theme's" }),
        font: Type.Union([Type.String({ maxLength: 200, pattern: '^[^;{}<>]*$', patternMessage: FONT }), Type.Null()], {
          description: "CSS font family; null keeps the theme's",
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type WidgetInput = Static<typeof WidgetInput>;

/** A stored widget: the input, its id, and a version every PUT moves. */
export type Widget = WidgetInput & { id: number; version: number; created_at: string; updated_at: string };

/** What `GET /api/v1/widgets/{id}` gives a storefront: the design and source, nothing about the shop's admin. */
export type PublicWidget = Omit<Widget, 'created_at' | 'updated_at'>;

export function publicWidget(widget: Widget): PublicWidget {
  const { created_at: _created, updated_at: _updated, ...rest } = widget;
  return rest;
}
