import { describe, expect, it } from 'vitest';
import { cartTokenOf } from '../../../src/domain/attribution/attribute.js';

describe('cartTokenOf', () => {
  it("keeps the token and drops the cart's key, as sent or URL-encoded", () => {
    expect(cartTokenOf('c1-5f0e9a?key=d41d8cd9')).toBe('c1-5f0e9a');
    expect(cartTokenOf('c1-5f0e9a%3Fkey%3Dd41d8cd9')).toBe('c1-5f0e9a');
    expect(cartTokenOf('c1-5f0e9a%3fkey%3dd41d8cd9')).toBe('c1-5f0e9a');
  });

  it('keeps a token without a key as it is', () => {
    expect(cartTokenOf('Z2NwLWV1cm9wZS13ZXN0NDowMUhY')).toBe('Z2NwLWV1cm9wZS13ZXN0NDowMUhY');
  });

  it('reads nothing, an empty token or a key alone as no cart', () => {
    expect(cartTokenOf(null)).toBeNull();
    expect(cartTokenOf(undefined)).toBeNull();
    expect(cartTokenOf('')).toBeNull();
    expect(cartTokenOf('?key=abc')).toBeNull();
    expect(cartTokenOf('  ')).toBeNull();
  });
});
