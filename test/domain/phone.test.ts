import { describe, expect, it } from 'vitest';
import { phonesIn, samePhone } from '../../src/domain/phone.js';

describe('phone numbers written differently', () => {
  it('are one by their digits, or by their last nine (country code against trunk prefix)', () => {
    expect(samePhone('+44 20 7946 0958', '+442079460958')).toBe(true);
    expect(samePhone('020 7946 0958', '(+44) 20-7946-0958')).toBe(true);
    expect(samePhone('+44 20 7946 0958', '+44 20 7946 1111')).toBe(false);
    expect(samePhone('+1 212 555 0958', '020 7946 0958')).toBe(false);
    // Too few digits to be a number: nothing matches them, not even themselves.
    expect(samePhone('0958', '0958')).toBe(false);
    expect(samePhone('555-0958', '555 0958')).toBe(true);
  });

  it('are found under every `phone` key of a document', () => {
    const order = { phone: null, billing_address: { phone: '1' }, shipping_lines: [{ address: { phone: '2' } }] };
    expect(phonesIn(order)).toEqual(['1', '2']);
  });
});
