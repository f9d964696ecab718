import { describe, expect, it } from 'vitest';
import { issuedAdvice, keyState, rotationWarning, signedInKey } from '../../console/src/privacy/keys.js';
import {
  customerIdOf,
  emailProblem,
  erasureSummary,
  exportFileName,
  isEmptyExport,
  kindLabel,
} from '../../console/src/privacy/requests.js';

describe('the Privacy page', () => {
  it('reads a customer id as the platform writes it, past 31 bits, and nothing else', () => {
    expect(customerIdOf(' 6512367 ')).toBe(6512367);
    expect(customerIdOf('7654321098765')).toBe(7654321098765);
    for (const text of ['', '0', '07', '-3', '1.5', '1e3', 'rosa', '99999999999999999999'])
      expect(customerIdOf(text)).toBeNull();
  });

  it('names who made each request, and the erasure in a sentence with its counts', () => {
    expect(kindLabel({ kind: 'data_request', id: '77' })).toBe('Data request (from your store)');
    expect(kindLabel({ kind: 'data_request', id: 'export-7-1764390000000' })).toBe('Data export (made here)');
    expect(kindLabel({ kind: 'redact', id: 'w1' })).toBe('Erasure (from your store)');
    expect(kindLabel({ kind: 'erasure', id: 'erasure-7-1' })).toBe('Erasure (made here)');
    expect(erasureSummary(7, { customers: 1, events: 2, track_events: 1, orders: 1, billing_customers: 0 })).toBe(
      'Customer 7 is erased: 1 customer record deleted, 3 browsing events deleted, ' +
        '1 order kept as anonymous sales, 0 subscription customers stripped of personal details.',
    );
    expect(exportFileName({ customer_id: 7, received_at: '2026-11-29T06:10:00.000Z' })).toBe(
      'customer-7-data-2026-11-29.json',
    );
    expect(erasureSummary(12345, { customers: 0, events: 0, track_events: 0, orders: 0, billing_customers: 0 })).toBe(
      'Nothing was stored about customer 12345, so nothing was erased: check the id.',
    );
  });

  it('tells an e-mail that cannot be one before anything is sent, and an export that found nothing', () => {
    expect(emailProblem('')).toBeNull();
    expect(emailProblem(' rosa@example.com ')).toBeNull();
    for (const text of ['rosa.example.com', 'rosa@example', 'rosa @example.com', 'rosa@example.'])
      expect(emailProblem(text)).toContain('is not an e-mail address');
    expect(isEmptyExport({ customer: null, orders: [], events: [], webhooks: [] })).toBe(true);
    expect(isEmptyExport({ customer: null, orders: [], events: [{ uuid: 'x' }] })).toBe(false);
    expect(isEmptyExport({ customer: { id: 7 }, orders: [] })).toBe(false);
  });
});

describe('the Keys page', () => {
  const key = { kind: 'public' as const, key_prefix: 'pk_1_abcdefghijk', created_at: '2026-11-01T00:00:00Z' };
  it('says how long a replaced key still works, and what a rotation ends for whom', () => {
    const at = (iso: string | null) => `at ${iso}`;
    expect(keyState({ ...key, expires_at: null, state: 'current' }, at)).toBe('In use');
    expect(keyState({ ...key, expires_at: '2026-11-30T00:00:00Z', state: 'grace' }, at)).toBe(
      'Replaced: works until at 2026-11-30T00:00:00Z',
    );
    expect(keyState({ ...key, expires_at: '2026-11-02T00:00:00Z', state: 'ended' }, at)).toBe('Ended');
    expect(rotationWarning(false)).toContain('The private key you signed in with ends now');
    expect(rotationWarning(true)).toContain('The current private key also works for 24 more hours');
    expect(issuedAdvice(false, 'tomorrow')).toContain('The private key you signed in with has ended');
    expect(issuedAdvice(true, 'tomorrow')).toContain('the keys they replace stop working then');
  });

  it('finds the private key this console signed in with by its prefix, and none for the operator token', () => {
    const keys = [
      { ...key, expires_at: null, state: 'current' as const },
      { ...key, kind: 'private' as const, key_prefix: 'rb_priv_1_abcdef', expires_at: null, state: 'grace' as const },
    ];
    expect(signedInKey(keys, 'rb_priv_1_abcdef0123456789')?.state).toBe('grace');
    expect(signedInKey(keys, 'operator-token-0123456789abcdef')).toBeNull();
    expect(signedInKey(keys, 'pk_1_abcdefghijk0000')).toBeNull();
  });
});
