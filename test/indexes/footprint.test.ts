import { describe, expect, it } from 'vitest';
import { pageTextBytes } from '../../src/indexes/footprint.js';
import { indexProducts } from '../../src/indexes/product-serving.js';
import { product } from '../helpers/fixtures.js';

describe("the memory estimate's text of a page", () => {
  it('is one for every product of a page, counted from the strings the page holds, not its products', () => {
    const page = indexProducts([product(1), product(2, { tags: 'Alpha, gamma' }), product(3)]);
    expect(page[1]!.sharedText).toBe(page[0]!.sharedText);
    expect(page[2]!.sharedText).toBe(page[0]!.sharedText);
    expect(indexProducts([product(4)])[0]!.sharedText).not.toBe(page[0]!.sharedText);
    // One vendor, one type and two lists of tags, whatever the number of products that share them.
    const bytes = pageTextBytes(['Acme', 'Widgets'], ['alpha', 'beta', 'Alpha', 'gamma']);
    expect(page[0]!.sharedText.bytes).toBe(bytes);
    expect(indexProducts([product(5), product(6)])[0]!.sharedText.bytes).toBe(
      pageTextBytes(['Acme', 'Widgets'], ['alpha', 'beta']),
    );
  });

  it('counts each string the columns hold, a tag of two lists twice', () => {
    const one = pageTextBytes(['Acme'], ['alpha']);
    expect(pageTextBytes(['Acme'], ['alpha', 'alpha'])).toBeGreaterThan(one);
    expect(pageTextBytes(['Acme', 'Shirts'], ['alpha'])).toBeGreaterThan(one);
    expect(pageTextBytes(['Acme'], ['alphabet'])).toBeGreaterThan(one);
    expect(pageTextBytes([], [])).toBe(0);
  });
});
