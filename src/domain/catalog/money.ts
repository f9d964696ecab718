/**
 * Money as integers of 1/10,000 of the currency unit, so comparisons and sums are exact
 * (decimal strings in, decimal strings out; never floats in between).
 */
export type Money = number;

const SCALE = 10_000;
/**
 * Up to 4 decimals, below 900,000,000,000: above about 900.7 billion a value in 1/10,000 passes 2^53
 * and is no longer exact (900719925474.0993 compared equal to …0992).
 */
export const MONEY_PATTERN = '^(\\d{1,11}|[0-8]\\d{11})(\\.\\d{1,4})?$';
const DECIMAL = /^(-)?(\d{1,11}|[0-8]\d{11})(?:\.(\d{1,4}))?$/;

/** Parses a decimal string such as "19.99"; null when it is not one. */
export function parseMoney(text: string): Money | null {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const units = Number(whole) * SCALE + Number(fraction.padEnd(4, '0'));
  return sign ? -units : units;
}

/** Formats as a decimal string with two decimals (more only when the value needs them). */
export function formatMoney(value: Money): string {
  const negative = value < 0;
  const abs = Math.abs(value);
  const whole = Math.floor(abs / SCALE);
  let fraction = String(abs % SCALE).padStart(4, '0');
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Applies a percentage adjustment (e.g. 10 = +10 %), rounded half up to the cent. */
export function adjustByPercent(value: Money, percent: number): Money {
  const cents = Math.round((value * (100 + percent)) / 100 / 100);
  return cents * 100;
}
