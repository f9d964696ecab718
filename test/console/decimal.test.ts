import { describe, expect, it } from 'vitest';
import { decimalTyped, typedNumber } from '../../console/src/decimal.js';

describe('a number as a merchant types it', () => {
  it('reads a decimal comma as the point, and leaves what may be a thousands separator to be refused', () => {
    expect(decimalTyped('19,99')).toBe('19.99');
    expect(decimalTyped(' 2,5 ')).toBe('2.5');
    expect(decimalTyped('19,')).toBe('19,');
    // 1,999 is a thousand and more in English, 1.999 in German: neither is guessed.
    expect(decimalTyped('1,999')).toBe('1,999');
    expect(decimalTyped('19.99')).toBe('19.99');
  });

  it('is a number only when it is a plain decimal', () => {
    expect(typedNumber('2,5')).toBe(2.5);
    expect(typedNumber('14')).toBe(14);
    for (const text of ['', '1e3', '-2', '2.5.1', '1,999', 'abc']) expect(typedNumber(text), text).toBeNull();
  });
});
