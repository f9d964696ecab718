import { describe, expect, it } from 'vitest';
import { indexCollection, ProductCollections } from '../../src/indexes/collection-index.js';
import { BIG } from '../helpers/fixtures.js';

/** The plain fold the compressed rows replace: each member's collections, in the collections' order. */
function folded(members: Map<number, { id: number }[]>): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const [collection, list] of members)
    for (const product of list) out.set(product.id, [...(out.get(product.id) ?? []), collection]);
  return out;
}

describe('collections in the read model', () => {
  it("gives each product's collections as the plain fold does, in order, a product listed twice twice", () => {
    const members = new Map<number, { id: number }[]>();
    for (let c = 0; c < 30; c++) {
      const list: { id: number }[] = [];
      for (let k = 0; k < (c * 7) % 13; k++) list.push({ id: ((c * 31 + k * 17) % 50) + (k % 2 ? BIG : 1) });
      if (c === 4) list.push(list[0]!);
      members.set(c % 3 === 0 ? BIG * 10 + c : 900 - c, list);
    }
    const rows = new ProductCollections(members);
    const expected = folded(members);
    expect(rows.size).toBe(expected.size);
    for (const [product, collections] of expected) expect(rows.get(product)).toEqual(collections);
    expect(rows.get(424242)).toBeUndefined();
    expect(new ProductCollections(new Map()).get(1)).toBeUndefined();
  });

  it("keeps a collection's members as product ids by position, then id", () => {
    const collection = indexCollection({
      id: 3,
      title: 'T',
      handle: 't',
      updated_at: '2026-02-01T00:00:00.000Z',
      products: [
        { product_id: BIG + 2, position: 2 },
        { product_id: 9, position: 1 },
        { product_id: 5, position: 2 },
      ],
    });
    expect(collection).toEqual({ id: 3, title: 'T', handle: 't', members: [9, 5, BIG + 2] });
    // Listed in that order already (as the store lists them), or with only a tie of ids out of it.
    const listed = (products: { product_id: number; position: number }[]) =>
      indexCollection({ id: 3, title: 'T', handle: 't', updated_at: '2026-02-01T00:00:00.000Z', products }).members;
    expect(
      listed([
        { product_id: 9, position: 1 },
        { product_id: 5, position: 2 },
        { product_id: BIG, position: 2 },
      ]),
    ).toEqual([9, 5, BIG]);
    expect(
      listed([
        { product_id: BIG, position: 2 },
        { product_id: 5, position: 2 },
      ]),
    ).toEqual([5, BIG]);
  });
});
