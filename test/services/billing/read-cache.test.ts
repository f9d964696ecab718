import { describe, expect, it } from 'vitest';
import { ProviderReadCache } from '../../../src/services/billing/remote/read-cache.js';

describe("a node's cache of billing provider reads", () => {
  it('stays within its bytes, keeps the latest reads, and does not keep one past the bound of a read', async () => {
    const cache = new ProviderReadCache({ maxBytes: 200_000, ttlMs: 60_000 });
    let loads = 0;
    const customer = (id: number, nameLength: number) => async () => {
      loads++;
      return { id, first_name: 'n'.repeat(nameLength) };
    };
    for (let id = 1; id <= 100; id++) await cache.read(1, 'customer', id, customer(id, 10_000));
    expect(cache.bytes).toBeGreaterThan(150_000);
    expect(cache.bytes).toBeLessThanOrEqual(200_000);
    // The latest is served from the cache; the first was let go and is loaded again.
    await cache.read(1, 'customer', 100, customer(100, 10_000));
    expect(loads).toBe(100);
    await cache.read(1, 'customer', 1, customer(1, 10_000));
    expect(loads).toBe(101);
    // A read larger than the cache may hold is answered, and loaded again the next time.
    expect(await cache.read(1, 'customer', 500, customer(500, 150_000))).toMatchObject({ id: 500 });
    await cache.read(1, 'customer', 500, customer(500, 150_000));
    expect(loads).toBe(103);
  });
});
