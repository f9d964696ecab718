import type { Numbers } from './sold-products.js';

type ViewOf<T extends Numbers> = { new (buffer: ArrayBuffer, byteOffset: number, length: number): T };

/** Every offset a multiple of 8: any element type can view the arena from it. */
const align = (at: number) => (at + 7) & ~7;

/**
 * Typed arrays copied out of a buffer that must not be kept (a deserialized snapshot), all into
 * one buffer of their own instead of one each. A load copied about forty small arrays out of its
 * snapshot: forty allocations outside the heap, and forty more array buffers that every
 * collection of the old generation sweeps (docs/benchmarks.md). They live and die with their shop's
 * generation, so one buffer for all of them frees them together.
 */
export class OwnedArrays {
  private readonly arena: ArrayBuffer;
  private used = 0;

  /** Room for the arrays given, copied in any order: each padded to a multiple of 8. */
  constructor(arrays: Iterable<Numbers>) {
    let bytes = 0;
    for (const array of arrays) bytes += align(array.byteLength);
    this.arena = new ArrayBuffer(bytes);
  }

  /** The array's elements, in the shared buffer. */
  copy<T extends Numbers>(array: T): T {
    const at = align(this.used);
    if (at + array.byteLength > this.arena.byteLength) throw new RangeError('more bytes copied than announced');
    const out = new (array.constructor as ViewOf<T>)(this.arena, at, array.length);
    out.set(array as never); // one element type: a copy of the bytes
    this.used = at + array.byteLength;
    return out;
  }
}
