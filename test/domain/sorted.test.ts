import { describe, expect, it } from 'vitest';
import { inOrderOf } from '../../src/domain/sorted.js';

describe('inOrderOf', () => {
  const byNumber = (a: number, b: number) => a - b;

  it('gives back the array itself when it is in order, ties included', () => {
    const items = [1, 2, 2, 5];
    expect(inOrderOf(items, byNumber)).toBe(items);
    const none: number[] = [];
    expect(inOrderOf(none, byNumber)).toBe(none);
  });

  it('sorts a copy when it is not, and leaves the given array as it was', () => {
    const items = [3, 1, 2];
    const sorted = inOrderOf(items, byNumber);
    expect(sorted).toEqual([1, 2, 3]);
    expect(sorted).not.toBe(items);
    expect(items).toEqual([3, 1, 2]);
  });
});
