import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/cache/rate-limiter.js';
import { connectRedis, whenReady } from '../../src/cache/redis.js';
import { backends } from '../helpers/backends.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { productInput } from '../helpers/fixtures.js';
import { REDIS_URL, redisAvailable, redisScope } from '../helpers/redis.js';

describe('rate limits', () => {
  const [backend] = backends();
  let t: TestApp;
  let shop: { public: string; private: string };
  beforeAll(async () => {
    t = await startApp(backend!);
    shop = await t.createShop('limited');
    await t.admin('PUT', '/admin/v1/shops/limited/products', [productInput(1)]);
    await t.admin('PATCH', '/admin/v1/shops/limited', {
      settings: { rate_limit_public_per_minute: 3, rate_limit_private_per_minute: 2 },
    });
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  const get = (key: string, ip = '203.0.113.1') =>
    t.app.inject({ url: `/api/v1/products/static?key=${key}&ids=1`, remoteAddress: ip });

  it("answers 429 with Retry-After and a JSON error past a public key's limit, per client address", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(shop.public)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await get(shop.public);
    expect(limited.json().error).toMatch(/^Rate limit exceeded: 3 requests a minute/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await get(shop.public, '198.51.100.7')).statusCode).toBe(200); // another visitor
    expect((await get(shop.public, '198.51.100.7')).headers['x-ratelimit-remaining']).toBe('1');
  });

  it('counts a request its parameters refuse, and gives its 400 the limit headers', async () => {
    const ip = '192.0.2.44';
    const bad = (n: number) =>
      t.app.inject({ url: `/api/v1/products/static?key=${shop.public}&ids=x${n}`, remoteAddress: ip });
    const first = await bad(1);
    expect(first.statusCode).toBe(400);
    expect([first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']]).toEqual(['3', '2']);
    await bad(2);
    await bad(3);
    expect((await get(shop.public, ip)).statusCode).toBe(429);
  });

  it("applies a shop's own limit to the event intake, which does not load the shop", async () => {
    const quiet = await t.createShop('quiet-limited');
    await t.admin('PATCH', '/admin/v1/shops/quiet-limited', { settings: { rate_limit_public_per_minute: 2 } });
    const post = () =>
      t.app.inject({
        method: 'POST',
        url:
          `/api/v1/analytics/event?key=${quiet.public}&subject=user&verb=viewed` +
          '&noun=product&shop_product_handle=x&uuid=3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b',
        remoteAddress: '192.0.2.9',
      });
    expect([(await post()).statusCode, (await post()).statusCode, (await post()).statusCode]).toEqual([200, 200, 429]);
    expect(t.services.catalogIndex.get(quiet.id)).toBeUndefined();
  });

  it("applies a shop's own limit to the bulk event intake too", async () => {
    const bulk = await t.createShop('bulk-limited');
    await t.admin('PATCH', '/admin/v1/shops/bulk-limited', { settings: { rate_limit_public_per_minute: 2 } });
    const view = { subject: 'user', verb: 'viewed', noun: 'product', uuid: '3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b' };
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/v2/analytics/event/bulk?key=${bulk.public}`,
        payload: [{ ...view, defined_noun_id: 'x' }],
        remoteAddress: '192.0.2.10',
      });
    const first = await post();
    expect(first.headers['x-ratelimit-limit']).toBe('2');
    expect([first.statusCode, (await post()).statusCode, (await post()).statusCode]).toEqual([200, 200, 429]);
  });

  it('limits a private key per key, on the public and the admin API', async () => {
    const reactivate = () => t.app.inject(`/api/v1/billing/reactivate?key=${shop.private}&billing_customer_id=1`);
    expect((await reactivate()).statusCode).toBe(404);
    expect((await t.admin('GET', '/admin/v1/shops/limited', undefined, shop.private)).statusCode).toBe(200);
    expect((await reactivate()).statusCode).toBe(429);
    // The operator token has its own (default) limit.
    expect((await t.admin('GET', '/admin/v1/shops/limited')).statusCode).toBe(200);
  });

  it('refuses settings that are not positive whole numbers', async () => {
    expect(
      (await t.admin('PATCH', '/admin/v1/shops/limited', { settings: { rate_limit_public_per_minute: 0 } })).statusCode,
    ).toBe(422);
  });
});

describe.runIf(redisAvailable())('rate limits shared through Redis', () => {
  it("counts one caller's requests across nodes, and falls back to local counts when Redis fails", async () => {
    const scope = redisScope();
    const [ra, rb] = [connectRedis(REDIS_URL, () => undefined), connectRedis(REDIS_URL, () => undefined)];
    await Promise.all([whenReady(ra), whenReady(rb)]);
    const a = new RateLimiter(ra, scope.prefix);
    const b = new RateLimiter(rb, scope.prefix);
    const now = Date.now();
    expect((await a.hit('caller', 2, now)).allowed).toBe(true);
    expect((await b.hit('caller', 2, now)).allowed).toBe(true);
    expect((await a.hit('caller', 2, now)).allowed).toBe(false);
    const deadRedis = connectRedis('redis://127.0.0.1:1', () => undefined);
    const dead = new RateLimiter(deadRedis, scope.prefix);
    expect((await dead.hit('x', 1, now)).allowed).toBe(true);
    expect((await dead.hit('x', 1, now)).allowed).toBe(false);
    ra.disconnect();
    rb.disconnect();
    deadRedis.disconnect();
    await scope.cleanup();
  });
});
