import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjustByPercent, formatMoney, parseMoney } from '../../../src/domain/catalog/money.js';

describe('money', () => {
  it.each([
    ['19.99', 199_900],
    ['0', 0],
    ['5', 50_000],
    ['0.5', 5_000],
    ['1.2345', 12_345],
    ['-3.10', -31_000],
    [' 7.00 ', 70_000],
  ])('parses %s', (text, units) => expect(parseMoney(text)).toBe(units));

  it.each(['', 'abc', '1.23456', '1,00', '1e3', '--1', '.5', 'NaN'])('refuses %j', (text) =>
    expect(parseMoney(text)).toBeNull(),
  );

  it('takes only amounts it holds exactly: below 900 billion', () => {
    expect(parseMoney('899999999999.9999')).toBe(8_999_999_999_999_999);
    expect(Number.isSafeInteger(parseMoney('899999999999.9999'))).toBe(true);
    // Past 2^53 in 1/10,000, …0993 would have compared equal to …0992.
    expect(parseMoney('900719925474.0993')).toBeNull();
    expect(parseMoney('900000000000')).toBeNull();
  });

  it('formats with two decimals, more only when needed', () => {
    expect(formatMoney(199_900)).toBe('19.99');
    expect(formatMoney(50_000)).toBe('5.00');
    expect(formatMoney(12_345)).toBe('1.2345');
    expect(formatMoney(-31_000)).toBe('-3.10');
  });

  it('round-trips every amount exactly', () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (units) => parseMoney(formatMoney(units)) === units));
  });

  it('adjusts by a percentage, rounded to the cent', () => {
    expect(adjustByPercent(parseMoney('12.50')!, 10)).toBe(parseMoney('13.75'));
    expect(adjustByPercent(parseMoney('9.99')!, 8)).toBe(parseMoney('10.79'));
    expect(adjustByPercent(parseMoney('10.00')!, -100)).toBe(0);
  });
});
