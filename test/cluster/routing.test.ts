import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { keyOfHead, ownerSlot, requestHead } from '../../src/cluster/routing.js';

describe('the key of a request head', () => {
  it('is the key query parameter first, else the X-Api-Key or X-Rebuy-User-Token header', () => {
    const head = (target: string, ...lines: string[]) => [`GET ${target} HTTP/1.1`, 'Host: x', ...lines].join('\r\n');
    expect(keyOfHead(head('/api/v1/products/static?ids=1&key=rb_pub_a%2Bb'))).toBe('rb_pub_a+b');
    expect(keyOfHead(head('/api/v1/products/static?key=first&key=second'))).toBe('first');
    expect(keyOfHead(head('/api/v1/x?monkey=1', 'X-API-Key: from-header'))).toBe('from-header');
    expect(keyOfHead(head('/api/v1/x?key=', 'x-rebuy-user-token:  widget '))).toBe('widget');
    expect(keyOfHead(head('/api/v1/x?key=q', 'X-Api-Key: h'))).toBe('q');
    expect(keyOfHead(head('/admin/v1/shops', 'Authorization: Bearer t'))).toBeNull();
  });

  it('is read only once the head is complete, and never from the body', () => {
    const request = Buffer.from('POST /api/v1/event HTTP/1.1\r\nHost: x\r\n\r\nkey=in-the-body');
    expect(requestHead(request.subarray(0, 20))).toBeNull();
    const head = requestHead(request)!;
    expect(head.endsWith('Host: x')).toBe(true);
    expect(keyOfHead(head)).toBeNull();
  });
});

describe('rendezvous hashing over worker slots', () => {
  const keys = Array.from({ length: 2000 }, (_, i) => `rb_pub_${i.toString(36).padStart(8, 'x')}${i * 7919}`);

  it('spreads keys over the slots', () => {
    const counts = [0, 0, 0, 0];
    for (const key of keys) counts[ownerSlot(key, [0, 1, 2, 3])!]!++;
    for (const n of counts) expect(n).toBeGreaterThan(400);
  });

  it('moves only the keys of a slot that leaves, and gives them back when it returns', () => {
    const all = keys.map((k) => ownerSlot(k, [0, 1, 2]));
    const without1 = keys.map((k) => ownerSlot(k, [0, 2]));
    keys.forEach((_, i) => {
      if (all[i] !== 1) expect(without1[i]).toBe(all[i]);
      else expect([0, 2]).toContain(without1[i]);
    });
    expect(ownerSlot('any', [])).toBeNull();
  });
});

describe('REBOUND_KEY_ROUTING', () => {
  it('is on by default with several workers, off with one, and can be turned off', () => {
    expect(loadConfig({ REBOUND_WORKERS: '2' }).keyRouting).toBe(true);
    expect(loadConfig({ REBOUND_WORKERS: '1' }).keyRouting).toBe(false);
    expect(loadConfig({ REBOUND_WORKERS: '2', REBOUND_KEY_ROUTING: 'off' }).keyRouting).toBe(false);
    expect(() => loadConfig({ REBOUND_KEY_ROUTING: 'maybe' })).toThrow('REBOUND_KEY_ROUTING');
  });
});
