import { describe, expect, it } from 'vitest';
import { OwnedArrays } from '../../src/indexes/owned-arrays.js';

describe('OwnedArrays', () => {
  it('copies arrays of any element type into one buffer, each aligned, each its own elements', () => {
    const source = new ArrayBuffer(64);
    const bytes = new Uint8Array(source, 1, 3).fill(7);
    const wide = new Float64Array([1.5, 2 ** 53, -0]);
    const mid = new Uint16Array([65535, 1]);
    const owned = new OwnedArrays([bytes, wide, mid]);
    const [b, w, m] = [owned.copy(bytes), owned.copy(wide), owned.copy(mid)];
    expect([b, w, m].map((a) => a.constructor)).toEqual([Uint8Array, Float64Array, Uint16Array]);
    expect([...b]).toEqual([7, 7, 7]);
    expect([...w]).toEqual([1.5, 2 ** 53, -0]);
    expect([...m]).toEqual([65535, 1]);
    expect(new Set([b.buffer, w.buffer, m.buffer]).size).toBe(1);
    expect(b.buffer).not.toBe(source);
    expect(w.byteOffset % 8).toBe(0);
    // Copies, not views: the source may change or go.
    bytes.fill(0);
    expect(b[0]).toBe(7);
    expect(() => owned.copy(wide)).toThrow(RangeError);
  });

  it('has room for the arrays announced whatever the order they are copied in', () => {
    const wide = new Float64Array([1]);
    const narrow = new Uint8Array([2]);
    const owned = new OwnedArrays([wide, narrow]);
    expect([...owned.copy(narrow), ...owned.copy(wide)]).toEqual([2, 1]);
  });
});
