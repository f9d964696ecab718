import { describe, expect, it } from 'vitest';
import { indexCollection, ProductCollections } from '../../src/indexes/collection-index.js';
import { BIG } from '../helpers/fixtures.js';

/** The plain fold the compressed rows replace: each member's collections, in the collections' order. */
function folded(collections: { id: number; members: number[] }[], inCatalog: (id: number) => boolean) {
  const out = new Map<number, number[]>();
  for (const { id, members } of collections)
    for (const product of members.filter(inCatalog)) out.set(product, [...(out.get(product) ?? []), id]);
  return out;
}

describe('collections in the read model', () => {
  it("gives each product's collections as the plain fold does, in order, a product listed twice twice", () => {
    const collections: { id: number; members: number[] }[] = [];
    for (let c = 0; c < 30; c++) {
      const members: number[] = [];
      for (let k = 0; k < (c * 7) % 13; k++) members.push(((c * 31 + k * 17) % 50) + (k % 2 ? BIG : 1));
      if (c === 4) members.push(members[0]!);
      collections.push({ id: c % 3 === 0 ? BIG * 10 + c : 900 - c, members });
    }
    // Members not in the catalog (here, odd ids) are in no product's row.
    for (const inCatalog of [() => true, (id: number) => id % 2 === 0]) {
      const rows = new ProductCollections(collections, inCatalog);
      const expected = folded(collections, inCatalog);
      expect(rows.size).toBe(expected.size);
      for (const [product, ids] of expected) expect(rows.get(product)).toEqual(ids);
    }
    const rows = new ProductCollections(collections, (id) => id % 2 === 0);
    expect(rows.get(collections[1]!.members.find((id) => id % 2 === 1)!)).toBeUndefined();
    expect(rows.get(424242)).toBeUndefined();
    expect(new ProductCollections([]).get(1)).toBeUndefined();
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
