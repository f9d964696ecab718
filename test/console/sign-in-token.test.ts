import { describe, expect, it } from 'vitest';
import { signInToken } from '../../console/src/sign-in-token.js';

describe('the token a merchant signs in with', () => {
  it('is a shop key whole when pasted across a line break, an operator token as typed', () => {
    expect(signInToken(' rb_priv_Ab12Bw2K\nqwg1Cd34 ')).toBe('rb_priv_Ab12Bw2Kqwg1Cd34');
    expect(signInToken('rb_priv_Ab12Bw2K qwg1Cd34')).toBe('rb_priv_Ab12Bw2Kqwg1Cd34');
    // The operator's token is whatever the operator set: only its ends are trimmed.
    expect(signInToken('  my operator token ')).toBe('my operator token');
  });
});
