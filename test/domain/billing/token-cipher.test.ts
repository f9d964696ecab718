import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openToken, sealToken } from '../../../src/domain/billing/token-cipher.js';

describe('provider token sealing', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and never shows the token in the sealed form', () => {
    const sealed = sealToken('sk_live_secret-token', key, 7);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('secret');
    expect(openToken(sealed, key, 7)).toBe('sk_live_secret-token');
    expect(sealToken('sk_live_secret-token', key, 7)).not.toBe(sealed); // a fresh nonce each time
  });

  it('does not open with another key, for another shop, or once tampered with', () => {
    const sealed = sealToken('token', key, 7);
    expect(openToken(sealed, randomBytes(32), 7)).toBeNull();
    expect(openToken(sealed, key, 8)).toBeNull();
    const [v, iv, tag, body] = sealed.split('.');
    expect(openToken([v, iv, tag, `${body}A`].join('.'), key, 7)).toBeNull();
    expect(openToken('plain-token', key, 7)).toBeNull();
  });
});
