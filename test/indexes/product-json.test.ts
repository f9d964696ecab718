import { describe, expect, it } from 'vitest';
import { productBytes, serializeProduct, type SerializeOptions } from '../../src/indexes/product-json.js';
import { indexProduct, packServed, servingRow, unpackServed } from '../../src/indexes/product-serving.js';
import { BIG, product } from '../helpers/fixtures.js';

const FORMS: SerializeOptions[] = [
  {},
  { metafields: true },
  { variantMetafields: true },
  { metafields: true, variantMetafields: true, keepVariants: [0] },
  { marketVariants: ['{"id":1,"price":"9.00"}'] },
];

/** A resident product keeps its answer bytes deflated; every answer made from them is the same, byte for byte. */
describe('deflated answer bytes', () => {
  const products = [
    product(1),
    product(2, { tags: 'Sale, Ünïcode ✓', metafields: [] }),
    product(BIG, { body_html: `<p>${'long text '.repeat(500)}</p>` }),
  ];

  it('gives every form of every product exactly as the plain bytes do', () => {
    for (const p of products) {
      const plain = serializeProduct(p);
      const deflated = plain.deflate();
      expect(deflated.bytes.equals(plain.bytes)).toBe(true);
      expect(deflated.plain.equals(plain.plain)).toBe(true);
      expect([
        deflated.head,
        deflated.variants,
        deflated.tail,
        deflated.metafields,
        deflated.variantMetafields,
      ]).toEqual([plain.head, plain.variants, plain.tail, plain.metafields, plain.variantMetafields]);
      for (const form of FORMS) expect(productBytes(deflated, form).equals(productBytes(plain, form))).toBe(true);
    }
  });

  it('keeps a product in memory in a fraction of its answer bytes, read from the stored row or the document', () => {
    const rows = products.map((p) => ({ id: p.id, ...servingRow(p) }));
    const loaded = unpackServed(packServed(rows));
    for (const [i, p] of products.entries()) {
      const answer = serializeProduct(p).bytes;
      for (const json of [loaded[i]!.json, indexProduct(p).json]) {
        expect(json.bytes.equals(answer)).toBe(true);
        expect(json.storedBytes.length).toBeLessThan(answer.length / 2);
      }
    }
  });

  it('inflates a product larger than the shared stream buffer exactly too', () => {
    const huge = serializeProduct(product(9, { body_html: `<p>${'a long description '.repeat(40_000)}</p>` }));
    expect(huge.bytes.length).toBeGreaterThan(512 * 1024);
    expect(huge.deflate().bytes.equals(huge.bytes)).toBe(true);
    // And the next small product through the shared stream again.
    const small = serializeProduct(product(10));
    expect(small.deflate().bytes.equals(small.bytes)).toBe(true);
  });

  it('matches tags lower-cased, sharing the tags themselves when they already are', () => {
    const mixed = indexProduct(product(4, { tags: 'Sale, Ünïcode ✓, new' }));
    expect(mixed.tagsLower).toEqual(['sale', 'ünïcode ✓', 'new']);
    expect(mixed.tags).toEqual(['Sale', 'Ünïcode ✓', 'new']);
    const lower = indexProduct(product(5, { tags: 'sale, new' }));
    expect(lower.tagsLower).toBe(lower.tags);
  });

  it("keeps one list of tags for a load's products that have the same; reads the main image from the answer", () => {
    const images = [
      { id: 71, src: 'https://cdn.example/first.png' },
      { id: 72, src: 'https://cdn.example/2.png' },
    ];
    const docs = [
      product(6, { tags: 'Sale, new', images }),
      product(7, { tags: 'Sale, new', image: { id: 73, src: 'https://cdn.example/main.png' }, images }),
      product(8, { tags: 'new, Sale', images: [] }),
    ];
    const rows = docs.map((p) => ({ id: p.id, ...servingRow(p) }));
    for (const loaded of [unpackServed(packServed(rows)), docs.map(indexProduct)]) {
      expect(loaded.map((p) => p.tags)).toEqual([
        ['Sale', 'new'],
        ['Sale', 'new'],
        ['new', 'Sale'],
      ]);
      expect(loaded.map((p) => p.image)).toEqual([
        'https://cdn.example/first.png',
        'https://cdn.example/main.png',
        null,
      ]);
    }
    const [first, second, third] = unpackServed(packServed(rows));
    expect(second!.tags).toBe(first!.tags);
    expect(second!.tagsLower).toBe(first!.tagsLower);
    expect(first!.tagsLower).toEqual(['sale', 'new']);
    expect(third!.tags).not.toBe(first!.tags);
  });
});
