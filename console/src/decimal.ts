/**
 * A number as a merchant types it: a decimal comma (`19,99`, as most of Europe writes it) read as the point.
 * A number input of the browser dropped the comma instead, and `19,99` was saved as 1999. Other text is
 * left as typed, for the server to refuse naming the field.
 */
export function decimalTyped(text: string): string {
  const trimmed = text.trim();
  return /^\d+,\d{1,2}$/.test(trimmed) ? trimmed.replace(',', '.') : text;
}

/** The number a typed text is, or null when it is none (a plain decimal, no exponent, no sign). */
export function typedNumber(text: string): number | null {
  const normal = decimalTyped(text).trim();
  return /^\d+(\.\d+)?$/.test(normal) ? Number(normal) : null;
}
