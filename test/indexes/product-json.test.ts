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
});
