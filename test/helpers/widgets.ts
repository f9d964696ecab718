import type { WidgetInput } from '../../src/domain/widgets/widget.js';

/** A valid widget design; overrides replace whole fields. */
export const widgetInput = (overrides: Partial<WidgetInput> = {}): WidgetInput => ({
  name: 'Product page',
  placement: 'product',
  source: { list: 'trending_products', limit: 8 },
  title: 'Trending now',
  layout: 'grid',
  cards: 4,
  show: { price: true, compare_at_price: true, vendor: false, add_to_cart: false },
  style: { accent: null, text: null, font: null },
  ...overrides,
});
