import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ChangeBus, type ChangeMessage } from '../../src/cache/change-bus.js';
import { connectRedis, whenReady } from '../../src/cache/redis.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { SharedAnswers } from '../../src/cache/shared-answers.js';
import { REDIS_URL, redisAvailable, redisScope } from '../helpers/redis.js';

type Backend = { name: string; make: (prefix: string) => Redis | null };
const backends: Backend[] = [{ name: 'memory', make: () => null }];
if (redisAvailable()) backends.push({ name: 'redis', make: () => connectRedis(REDIS_URL, () => undefined) });

/** The cache contract, written once, run on memory and on Redis. */
describe.each(backends)('answer cache on $name', ({ name, make }) => {
  const scope = redisScope();
  const clients: Redis[] = [];
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await scope.cleanup();
  });
  const node = async () => {
    const redis = make(scope.prefix);
    if (redis) {
      clients.push(redis);
      expect(await whenReady(redis)).toBe(true);
    }
    return new SharedAnswers(new ResponseCache({ ttlSeconds: 60 }), redis, {
      prefix: scope.prefix,
      ttlSeconds: 60,
      warn: () => undefined,
    });
  };

  it('returns what was stored, and nothing for other keys', async () => {
    const cache = await node();
    cache.set('k1', Buffer.from('{"data":[1]}'));
    expect((await cache.get('k1'))?.body.toString()).toBe('{"data":[1]}');
    expect(await cache.get('k2')).toBeUndefined();
  });

  it(name === 'redis' ? 'shares answers between nodes' : 'keeps answers to the node', async () => {
    const a = await node();
    const b = await node();
    a.set('shared', Buffer.from('{"data":[2]}'));
    if (name === 'redis') {
      // The Redis write is not awaited by set: wait until the other node sees it.
      await vi.waitFor(async () => expect((await b.get('shared'))?.body.toString()).toBe('{"data":[2]}'), {
        timeout: 30_000,
      });
      expect(b.remoteHits).toBe(1);
    } else {
      expect(await b.get('shared')).toBeUndefined();
    }
  });
});

describe.runIf(redisAvailable())('Redis failures and the change bus', () => {
  it('serves around a Redis that does not answer: misses, never errors', async () => {
    const dead = connectRedis('redis://127.0.0.1:1', () => undefined);
    const warnings: unknown[] = [];
    const cache = new SharedAnswers(new ResponseCache({ ttlSeconds: 60 }), dead, {
      prefix: 'x:',
      ttlSeconds: 60,
      warn: (e) => warnings.push(e),
    });
    expect(await cache.get('missing')).toBeUndefined();
    cache.set('local', Buffer.from('{}'));
    expect((await cache.get('local'))?.body.toString()).toBe('{}');
    // The get and the set both failed.
    await vi.waitFor(() => expect(cache.remoteErrors).toBeGreaterThan(1), { timeout: 30_000 });

    expect(warnings).toHaveLength(1); // logged once, not per request
    dead.disconnect();
  });

  it('carries changes to the other nodes, not back to the sender', async () => {
    const scope = redisScope();
    const [ra, rb] = [connectRedis(REDIS_URL, () => undefined), connectRedis(REDIS_URL, () => undefined)];
    const a = new ChangeBus(ra, `${scope.prefix}changes`, () => undefined);
    const b = new ChangeBus(rb, `${scope.prefix}changes`, () => undefined);
    const gotA: ChangeMessage[] = [];
    const gotB: ChangeMessage[] = [];
    await a.subscribe((m) => gotA.push(m));
    await b.subscribe((m) => gotB.push(m));
    a.publish({ type: 'shop', shopId: 7, version: 12 });
    await vi.waitFor(() => expect(gotB).toHaveLength(1), { timeout: 30_000 });
    expect(gotB).toEqual([expect.objectContaining({ type: 'shop', shopId: 7, version: 12 })]);
    expect(gotA).toEqual([]);
    await a.close();
    await b.close();
    ra.disconnect();
    rb.disconnect();
  });
});
