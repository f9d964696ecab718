import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

// The client is loaded with the first connection: about 1.5 MB of heap a node without REDIS_URL never uses.
const require = createRequire(import.meta.url);

/** How long a command may wait for Redis before the caller serves without it. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** Whether an error is ioredis's command timeout. */
export function isCommandTimeout(error: unknown): boolean {
  return (error as { message?: unknown } | null)?.message === 'Command timed out';
}

/**
 * A Redis connection that fails fast: commands are not queued while disconnected, so a Redis
 * outage turns into quick errors the callers serve around, never into waiting requests.
 */
export function connectRedis(url: string, onError: (error: Error) => void): Redis {
  const { Redis: Client } = require('ioredis') as typeof import('ioredis');
  const redis = new Client(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
  });
  redis.on('error', onError);
  return redis;
}

/** Waits (at most `ms`) for the first connection; false when Redis is not there yet. */
export function whenReady(redis: Redis, ms = 2000): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', ready);
      resolve(false);
    }, ms);
    const ready = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', ready);
  });
}
