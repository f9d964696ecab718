import { describe, expect, it } from 'vitest';
import { outageLog, stallWatch } from '../../src/cache/outage-log.js';
import { connectRedis, isCommandTimeout, REDIS_COMMAND_TIMEOUT_MS, whenReady } from '../../src/cache/redis.js';
import { REDIS_URL, redisAvailable } from '../helpers/redis.js';

describe('the shared cache outage log', () => {
  it('logs the first failure, then one a minute with how many the minute held', () => {
    let clock = 1_000;
    const lines: [unknown, number][] = [];
    const log = outageLog(
      (error, held) => lines.push([error, held]),
      () => clock,
    );
    log('down');
    for (let i = 0; i < 30; i++) {
      clock += 1_000;
      log(`again ${i}`);
    }
    expect(lines).toEqual([['down', 0]]);
    clock += 30_000; // a minute after the first line
    log('still down');
    expect(lines).toEqual([
      ['down', 0],
      ['still down', 30],
    ]);
  });
});

describe.skipIf(!redisAvailable())('a Redis command timing out while the process holds its event loop', () => {
  it('is told apart from an outage: Redis answered, the loop came back to the timer first', async () => {
    const redis = connectRedis(REDIS_URL, () => undefined);
    const watch = stallWatch(REDIS_COMMAND_TIMEOUT_MS * 0.8);
    try {
      expect(await whenReady(redis)).toBe(true);
      expect(watch.stalled()).toBe(false);
      const answer = redis.get('rebound-test:stall').then(
        () => null,
        (error: unknown) => error,
      );
      // What a demo seed or a large import does to every other piece of work in the process.
      const until = performance.now() + REDIS_COMMAND_TIMEOUT_MS * 1.6;
      while (performance.now() < until);
      const error = await answer;
      expect(isCommandTimeout(error)).toBe(true);
      expect(watch.stalled()).toBe(true);
    } finally {
      watch.stop();
      redis.disconnect();
    }
  });
});
