import type { Widget as StoredWidgetDoc, WidgetInput } from '../../../src/domain/widgets/widget.js';

export type Widget = StoredWidgetDoc;
export type { WidgetInput };

/** Placement hints in the words of a shop's admin. */
export const PLACEMENT_LABELS: Record<WidgetInput['placement'], string> = {
  product: 'Product page',
  cart: 'Cart',
  home: 'Home page',
  collection: 'Collection page',
  thank_you: 'Thank-you page',
  custom: 'Somewhere else',
};

/** Lists a widget can show without code, named as a merchant would name them. */
export const LIST_LABELS: Record<string, string> = {
  trending_products: 'Trending now',
  top_sellers: 'Best sellers',
  recommended: 'Frequently bought together',
  similar_products: 'Similar products',
  viewed_together: 'Customers also viewed',
  for_you: 'Picked for the customer',
  purchased: 'Buy it again',
  recently_viewed: 'Recently viewed',
  viewed: 'Viewed this visit',
  static: 'Chosen products (by id or handle)',
  collections: 'Products of a collection',
  search: 'Search results',
};

/** A new widget: a best-sellers grid of four with the theme's colours and font. */
export function blankWidget(): WidgetInput {
  return {
    name: '',
    placement: 'product',
    source: { list: 'top_sellers', limit: 8 },
    title: 'Best sellers',
    layout: 'grid',
    cards: 4,
    show: { price: true, compare_at_price: true, vendor: false, add_to_cart: false },
    style: { accent: null, text: null, font: null },
  };
}

/** The design part of a stored widget, as the form edits it. */
export function inputOf(widget: Widget): WidgetInput {
  const { id: _id, version: _v, created_at: _c, updated_at: _u, ...input } = widget;
  return input;
}

/** The heading a list is known by, which a new design starts with; none for a ruleset. */
export function headingOf(source: WidgetInput['source']): string {
  return 'list' in source ? (LIST_LABELS[source.list] ?? '') : '';
}

/** Lists of the page's product, and of the signed-in customer: they show nothing without them. */
const PRODUCT_LISTS = new Set(['similar_products', 'viewed_together', 'recommended']);
const CUSTOMER_LISTS = new Set(['purchased', 'for_you']);

/** What a list needs of its page that the placement does not give, in words; null when nothing. */
export function pageNeedsOf(list: string, placement: WidgetInput['placement']): string | null {
  if (PRODUCT_LISTS.has(list) && placement !== 'product' && placement !== 'custom')
    return list === 'recommended'
      ? 'This list shows what is bought with the product on the page: on this placement there is none, ' +
          'so it shows your best sellers.'
      : 'This list shows products for the product on the page: on this placement it has none and shows nothing.';
  if (list === 'purchased') return 'This list shows what the signed-in customer bought before: guests see nothing.';
  return null;
}

/** What the page's template passes on, per placement, so rules and lists know the page's context. */
const CONTEXT: Partial<Record<WidgetInput['placement'], string>> = {
  product: ' data-product-ids="{{ product.id }}" data-product-handle="{{ product.handle }}"',
  cart: ' data-cart-subtotal="{{ cart.total_price | divided_by: 100.0 }}" data-cart-item-count="{{ cart.item_count }}"',
};
/** The signed-in customer, for the lists of a customer (empty for a guest, which the widget leaves out). */
const CUSTOMER = ' data-customer-id="{{ customer.id }}"';

/** The snippet a merchant pastes once into the theme; later changes to the widget need no edit. */
export function snippetOf(
  widget: Pick<Widget, 'id' | 'placement' | 'source'>,
  origin: string,
  currency: string,
): string {
  const customer = 'list' in widget.source && CUSTOMER_LISTS.has(widget.source.list) ? CUSTOMER : '';
  const context = `${CONTEXT[widget.placement] ?? ''}${customer}`;
  return [
    `<div data-rebound-widget="${widget.id}"${context} data-currency="${currency}"></div>`,
    `<script src="${origin}/widget.js?key=YOUR_PUBLIC_KEY" async></script>`,
  ].join('\n');
}
