import { describe, expect, it } from 'vitest';
import { blankWidget, headingOf, pageNeedsOf, snippetOf } from '../../console/src/widgets/model.js';

describe('widget designs in the console', () => {
  it("starts a design's heading as its list's name, and names none for a ruleset", () => {
    expect(blankWidget().title).toBe(headingOf(blankWidget().source));
    expect(headingOf({ list: 'similar_products', limit: 8 })).toBe('Similar products');
    expect(headingOf({ ruleset_id: 3 })).toBe('');
  });

  it('says what a list needs that its placement does not give', () => {
    expect(pageNeedsOf('similar_products', 'product')).toBeNull();
    expect(pageNeedsOf('similar_products', 'cart')).toContain('shows nothing');
    // Without a product, the storefront answers this one with best sellers, as its preview shows.
    expect(pageNeedsOf('recommended', 'home')).toContain('shows your best sellers');
    expect(pageNeedsOf('purchased', 'home')).toContain('signed-in customer');
    expect(pageNeedsOf('trending_products', 'home')).toBeNull();
  });

  it("passes the signed-in customer in the snippet of a customer's list, and the product on product pages", () => {
    const snippet = (list: string, placement: 'product' | 'home') =>
      snippetOf({ id: 6, placement, source: { list, limit: 8 } }, 'https://rb.example', 'USD');
    expect(snippet('purchased', 'home')).toContain('data-customer-id="{{ customer.id }}"');
    expect(snippet('for_you', 'product')).toContain('data-customer-id="{{ customer.id }}"');
    expect(snippet('for_you', 'product')).toContain('data-product-ids="{{ product.id }}"');
    expect(snippet('trending_products', 'home')).not.toContain('data-customer-id');
  });
});
