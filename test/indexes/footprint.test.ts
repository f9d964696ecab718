import { describe, expect, it } from 'vitest';
import { pageTextBytes } from '../../src/indexes/footprint.js';
import { indexProducts, packServed, servingRow, unpackServed } from '../../src/indexes/product-serving.js';
import { product } from '../helpers/fixtures.js';

const packed = (ids: number[], tags = 'alpha, beta') =>
  packServed(ids.map((id) => ({ id, ...servingRow(product(id, { tags })) })));

describe("the memory estimate's text of a page", () => {
  it('is one for every product of a page, counted from what the page holds', () => {
    const page = indexProducts([product(1), product(2, { tags: 'Alpha, gamma' }), product(3)]);
    expect(page[1]!.sharedText).toBe(page[0]!.sharedText);
    expect(page[2]!.sharedText).toBe(page[0]!.sharedText);
    expect(indexProducts([product(4)])[0]!.sharedText).not.toBe(page[0]!.sharedText);
    const stored = packed([1, 2]);
    expect(unpackServed(stored)[0]!.sharedText.bytes).toBe(pageTextBytes(stored.fields));
  });

  it("grows with its products' handles and titles, not with the vendors, types and tags they share", () => {
    const one = pageTextBytes(packed([1]).fields);
    const two = pageTextBytes(packed([1, 2]).fields);
    const handleAndTitle = Buffer.byteLength('product-2Product 2');
    // Their UTF-8 bytes and where each of the two ends.
    expect(two - one).toBe(handleAndTitle + 2 * 4);
    expect(pageTextBytes(packed([1], 'alpha, beta, gamma').fields)).toBeGreaterThan(one);
    expect(pageTextBytes(packed([1], 'beta, alpha').fields)).toBe(one);
  });
});
