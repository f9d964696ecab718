import { sortedIndexOf } from '../domain/models/build.js';
import type { SoldLine } from '../store/kysely/commerce.js';

/**
 * The distinct products of a shop's sold lines, ascending, and each line's product as an index
 * into them: the figures, the purchases and the co-purchases share the one table instead of each
 * keeping the ids (a Map's id is a boxed number of 16 bytes when it is a platform's large id).
 */
export interface SoldProducts {
  readonly ids: Float64Array;
  /** `ids[lineProduct[i]]` is line i's product (a working array: plain, garbage on the JS heap). */
  readonly lineProduct: readonly number[];
  /** The newest line's time, 0 without lines. */
  readonly newest: number;
}

export function soldProducts(lines: readonly SoldLine[]): SoldProducts {
  const sorted = new Float64Array(lines.length);
  let newest = 0;
  for (let i = 0; i < lines.length; i++) {
    sorted[i] = lines[i]!.productId;
    if (lines[i]!.at > newest) newest = lines[i]!.at;
  }
  sorted.sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++)
    if (distinct === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i]!;
  const ids = sorted.slice(0, distinct);
  const lineProduct: number[] = new Array(lines.length);
  for (let i = 0; i < lines.length; i++) lineProduct[i] = sortedIndexOf(ids, lines[i]!.productId);
  return { ids, lineProduct, newest };
}

export type Numbers = Uint8Array | Uint16Array | Uint32Array | Float64Array;

/** The smallest unsigned typed array holding these integers, or null when one is not such an integer. */
export function narrowed(values: ArrayLike<number>): Uint8Array | Uint16Array | Uint32Array | null {
  let max = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isInteger(v) || v < 0 || v > 0xffff_ffff) return null;
    if (v > max) max = v;
  }
  if (max <= 0xff) return Uint8Array.from(values);
  return max <= 0xffff ? Uint16Array.from(values) : Uint32Array.from(values);
}

/**
 * A figure of some of the sold products (units sold, a trending score) over their id table: one
 * number a product in a typed array instead of a Map entry. Reads as a ReadonlyMap in id order.
 * In a Float64Array an absent product is NaN; in an integer array (positive counts) it is 0.
 */
export class ProductFigure implements ReadonlyMap<number, number> {
  readonly size: number;
  private readonly zeroAbsent: boolean;

  constructor(
    private readonly ids: Float64Array,
    private readonly figures: Numbers,
  ) {
    this.zeroAbsent = !(figures instanceof Float64Array);
    let size = 0;
    for (let i = 0; i < figures.length; i++) if (this.present(figures[i]!)) size++;
    this.size = size;
  }

  /** Counts with NaN for the products without one, stored in the smallest array that holds them. */
  static ofCounts(ids: Float64Array, counts: Float64Array): ProductFigure {
    return new ProductFigure(ids, countArray(counts));
  }

  private present(value: number): boolean {
    return this.zeroAbsent ? value !== 0 : !Number.isNaN(value);
  }

  get(id: number): number | undefined {
    const at = sortedIndexOf(this.ids, id);
    if (at < 0) return undefined;
    const value = this.figures[at]!;
    return this.present(value) ? value : undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  forEach(callback: (value: number, key: number, map: ReadonlyMap<number, number>) => void, thisArg?: unknown): void {
    for (const [id, value] of this.entries()) callback.call(thisArg, value, id, this);
  }

  *entries(): MapIterator<[number, number]> {
    for (let i = 0; i < this.figures.length; i++)
      if (this.present(this.figures[i]!)) yield [this.ids[i]!, this.figures[i]!];
  }

  *keys(): MapIterator<number> {
    for (const [id] of this.entries()) yield id;
  }

  *values(): MapIterator<number> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[number, number]> {
    return this.entries();
  }

  /** Bytes of its values (the id table is counted once, with the sales figures). */
  get bytes(): number {
    return this.figures.byteLength;
  }
}

/** Counts with NaN for the products without one, in the smallest array that holds them (0 for none). */
export function countArray(counts: Float64Array): Numbers {
  let positive = true;
  for (let i = 0; i < counts.length && positive; i++) positive = Number.isNaN(counts[i]!) || counts[i]! > 0;
  const small = positive ? narrowed(counts.map((v) => (Number.isNaN(v) ? 0 : v))) : null;
  return small ?? counts;
}

/** Numbers in the smallest array that holds them exactly: an unsigned one for small integers, else 8 bytes each. */
export function compact(values: ArrayLike<number>): Numbers {
  return narrowed(values) ?? Float64Array.from(values);
}
