import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';
import { REDIS_URL, redisAvailable, redisScope } from '../../helpers/redis.js';

/**
 * An answer computed from a customer's data while their erasure runs is sent, but not stored: the
 * erasure dropped the shop's cached answers, here and in Redis, before the answer was done
 * (docs/operations.md, "Privacy").
 */
describe.each(backends())('an answer computed while an erasure runs, on $name', (backend) => {
  let t: TestApp;
  let key: string;
  let shopId: number;
  const redis = redisScope();
  beforeAll(async () => {
    t = await startApp(backend, redisAvailable() ? { REDIS_URL, REDIS_PREFIX: redis.prefix } : {});
    ({ public: key, id: shopId } = await t.createShop('race'));
    await t.admin('PUT', '/admin/v1/shops/race/products', [productInput(1), productInput(2)]);
    await t.admin('PUT', '/admin/v1/shops/race/customers', [{ id: 9100, email: 'ada@example.com' }]);
    const line = { id: 11, product_id: 2, variant_id: 21, quantity: 1, price: '12.50' };
    const at = new Date(Date.now() - 86_400_000).toISOString();
    await t.admin('PUT', '/admin/v1/shops/race/orders', [
      { id: 1, created_at: at, customer: { id: 9100 }, line_items: [line] },
    ]);
  });
  afterAll(async () => {
    await t.close();
    if (redisAvailable()) await redis.cleanup();
    await backend.cleanup();
  });

  it("sends the erased customer's list computed before the erasure, and keeps it nowhere", async () => {
    const lists = t.services.lists;
    const list = lists.list.bind(lists);
    let computed!: () => void;
    const inside = new Promise<void>((resolve) => {
      computed = resolve;
    });
    let release!: () => void;
    const erased = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The list is read from the data before the erasure and finished after it.
    vi.spyOn(lists, 'list').mockImplementationOnce(async (...args: Parameters<typeof list>) => {
      const answer = await list(...args);
      computed();
      await erased;
      return answer;
    });
    const url = `/api/v1/products/purchased?key=${key}&shop_customer_id=9100`;
    const pending = t.app.inject(url);
    await inside;
    expect((await t.admin('DELETE', '/admin/v1/shops/race/customers/9100')).statusCode).toBe(200);
    release();
    const res = await pending;
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((p: { id: number }) => p.id)).toEqual([2]);
    expect(res.headers['x-cache']).toBe('bypass');
    // Asked again, the answer is made from what remains: nothing.
    expect((await t.app.inject(url)).json().data).toEqual([]);
    if (!redisAvailable()) return;
    const client = new Redis(REDIS_URL);
    try {
      const stored = await client.keys(`${redis.prefix}ans:${shopId}:*`);
      const values = await Promise.all(stored.map((k) => client.get(k)));
      expect(values.filter((v) => v?.includes('"id":2'))).toEqual([]);
    } finally {
      client.disconnect();
    }
  });
});
