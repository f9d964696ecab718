import { describe, expect, it } from 'vitest';
import { PageProducts } from '../../src/indexes/page-products.js';
import { indexProducts } from '../../src/indexes/product-serving.js';
import { BIG, product } from '../helpers/fixtures.js';

describe("a loaded page's products by id", () => {
  const ids = [3, 8, BIG, BIG + 2];
  const products = indexProducts(ids.map((id) => product(id)));
  const asMap = new Map(products.map((p) => [p.id, p]));

  it('answers as a map of the products in page order, found by id', () => {
    const byId = PageProducts.of(Float64Array.from(ids), products);
    expect(byId).toBeInstanceOf(PageProducts);
    expect(byId.size).toBe(4);
    for (const id of ids) expect(byId.get(id)).toBe(asMap.get(id));
    for (const missing of [0, 4, BIG + 1, BIG + 3]) {
      expect(byId.get(missing)).toBeUndefined();
      expect(byId.has(missing)).toBe(false);
    }
    expect(byId.has(BIG)).toBe(true);
    expect([...byId]).toEqual([...asMap]);
    expect([...byId.keys()]).toEqual(ids);
    expect([...byId.values()]).toEqual(products);
    const seen: number[] = [];
    byId.forEach((p, id) => {
      seen.push(p.id === id ? id : -1);
    });
    expect(seen).toEqual(ids);
    expect(new Map(byId)).toEqual(asMap);
  });

  it('is a map when the ids do not ascend: a page is read in id order, anything else is not searched', () => {
    const shuffled = [products[2]!, products[0]!, products[1]!];
    const byId = PageProducts.of(
      Float64Array.from(shuffled, (p) => p.id),
      shuffled,
    );
    expect(byId).toBeInstanceOf(Map);
    expect(byId.get(3)).toBe(products[0]);
    expect(PageProducts.of(Float64Array.of(3, 3), [products[0]!, products[0]!])).toBeInstanceOf(Map);
  });
});
