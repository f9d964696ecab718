import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const redisAvailable = (): boolean => inject('redis');

/** A key prefix of its own for a test run, and a way to delete everything under it. */
export function redisScope() {
  const prefix = `rebound-test:${randomBytes(6).toString('hex')}:`;
  return {
    prefix,
    async cleanup() {
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    },
  };
}
