/**
 * The token as typed, its blanks at either end dropped; a shop key (`rb_priv_…`) holds none anywhere, so a
 * key pasted across a line break (which a browser turns into a space) is read whole.
 */
export function signInToken(typed: string): string {
  const trimmed = typed.trim();
  return /^rb_\w+_/.test(trimmed) ? trimmed.replace(/\s+/g, '') : trimmed;
}
