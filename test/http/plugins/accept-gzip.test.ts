import { describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../../src/http/plugins/accept-gzip.js';

describe('acceptsGzip', () => {
  it('takes gzip in any case, as browsers and HTTP clients send it', () => {
    for (const header of ['gzip', 'gzip, deflate, br', 'GZIP', 'deflate, Gzip;q=0.5', 'br;q=1, gzip;q=0.8'])
      expect(acceptsGzip(header), header).toBe(true);
  });

  it('refuses q=0, another coding, or no header', () => {
    for (const header of ['gzip;q=0', 'GZIP; q=0.0', 'gzip;q=0, br', 'deflate, br', 'identity', ''])
      expect(acceptsGzip(header), header).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip(['gzip', 'br'])).toBe(false);
  });
});
