import { describe, expect, it } from 'vitest';
import { RecentlyInflated } from '../../src/indexes/product-inflate.js';
import { ProductJson, serializeProduct } from '../../src/indexes/product-json.js';
import { BIG, product } from '../helpers/fixtures.js';

/** Deflated products as a loaded page keeps them, and the cache of those read lately, inflated. */
describe('products read lately, inflated', () => {
  const products = [
    product(1),
    product(2, { tags: 'Sale, Ünïcode ✓', metafields: [] }),
    product(BIG, { body_html: `<p>${'long text '.repeat(500)}</p>` }),
  ];

  it('keeps the products read most recently inflated, within its bytes, least recently read out first', () => {
    const jsons = products.map((p) => serializeProduct(p).deflate());
    const sizes = jsons.map((j) => j.bytes.length);
    const recent = new RecentlyInflated(sizes[0]! + sizes[1]!);
    const first = recent.get(jsons[0]!);
    expect(first.equals(jsons[0]!.bytes)).toBe(true);
    expect(recent.get(jsons[0]!)).toBe(first); // kept: not inflated again
    const second = recent.get(jsons[1]!);
    recent.get(jsons[0]!); // read again: now the second is the least recent
    recent.get(jsons[2]!); // over the bytes: the second goes, then the first if still over
    const again = recent.get(jsons[1]!);
    expect(again).not.toBe(second); // it was let go, and is inflated anew
    expect(again.equals(jsons[1]!.bytes)).toBe(true);
    // Bytes of their own (at most a few bytes of slack), not a view of a larger chunk or of a shared slab.
    for (const kept of [first, again]) expect(kept.buffer.byteLength - kept.length).toBeLessThanOrEqual(64);
  });

  it('inflates a product whatever came before: a damaged one is an error, and the next one reads whole', () => {
    const jsons = products.map((p) => serializeProduct(p).deflate());
    const recent = new RecentlyInflated(0);
    const stored = Buffer.from(jsons[2]!.storedBytes);
    const cut = ProductJson.deflated(stored.subarray(0, stored.length >> 1), Uint32Array.from(jsons[2]!.layout()));
    // The intact product first: a damaged one of the same length must not pass for it.
    expect(recent.get(jsons[2]!).equals(jsons[2]!.bytes)).toBe(true);
    expect(() => recent.get(cut)).toThrow();
    const garbage = ProductJson.deflated(Buffer.from([0xff, 0xff, 0xff, 0xff]), Uint32Array.from(jsons[0]!.layout()));
    expect(() => recent.get(garbage)).toThrow();
    for (const json of [...jsons, ...jsons]) {
      const plain = serializeProduct(products[jsons.indexOf(json)]!).bytes;
      expect(recent.get(json).equals(plain)).toBe(true);
    }
    // Inflated by a stream made anew, not by the public call from then on: into a buffer of exactly their
    // length (the public call writes into a chunk 64 bytes longer).
    for (const json of jsons) expect(recent.get(json).buffer.byteLength).toBe(json.inflatedLength);
  });
});
