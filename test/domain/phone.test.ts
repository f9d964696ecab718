import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { erasedPhoneDigests, phoneDigestsToFind } from '../../src/domain/erasure.js';
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

  it('written both with their country codes, are one only whole: mobiles of two countries share nine digits', () => {
    expect(samePhone('+33 6 12 34 56 78', '+31 6 12345678')).toBe(false);
    expect(samePhone('0033 6 12 34 56 78', '+33612345678')).toBe(true);
    expect(samePhone('(+31) 6 12345678', '+33 6 12 34 56 78')).toBe(false);
    expect(samePhone('06 12 34 56 78', '+33 6 12 34 56 78')).toBe(true);
    expect(samePhone('06 12345678', '+31 6 12345678')).toBe(true);
    // The trunk prefix written beside the country code, as British and German addresses often are.
    expect(samePhone('+44 (0)20 7946 0958', '+44 20 7946 0958')).toBe(true);
    expect(samePhone('+49 (0) 30 1234567', '0049 30 1234567')).toBe(true);
  });

  it('are recorded by an erasure and found later as samePhone says', () => {
    const numbers = [
      '+33 6 12 34 56 78',
      '+31 6 12345678',
      '0033612345678',
      '06 12 34 56 78',
      '555 0958',
      '+1 212 555 0958',
      '+44 (0)20 7946 0958',
      '020 7946 0958',
    ];
    for (const erased of numbers)
      for (const later of numbers) {
        const recorded = new Set(erasedPhoneDigests(erased));
        const found = phoneDigestsToFind(later).some((d) => recorded.has(d));
        expect(found, `${erased} then ${later}`).toBe(samePhone(erased, later));
      }
  });

  it('are found under every `phone` key of a document', () => {
    const order = { phone: null, billing_address: { phone: '1' }, shipping_lines: [{ address: { phone: '2' } }] };
    expect(phonesIn(order)).toEqual(['1', '2']);
  });

  it('are found by what erasures recorded before numbers were told apart by how they were written', () => {
    const legacy = (phone: string) => {
      const digits = phone.replace(/\D/g, '');
      const digest = (kind: string, value: string) =>
        createHash('sha256').update(`${kind}\n${value}`).digest('base64url');
      return new Set([digest('phone', digits), digest('phone9', digits.slice(-9))]);
    };
    for (const [erased, later] of [
      ['0033 6 12 34 56 78', '0033 6 12 34 56 78'],
      ['+33 6 12 34 56 78', '+33612345678'],
      ['+33 6 12 34 56 78', '06 12 34 56 78'],
    ] as const) {
      const recorded = legacy(erased);
      expect(
        phoneDigestsToFind(later).some((d) => recorded.has(d)),
        `${erased} then ${later}`,
      ).toBe(true);
    }
  });
});
