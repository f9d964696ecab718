import { Redis } from 'ioredis';

/**
 * A Redis connection that fails fast: commands are not queued while disconnected, so a Redis
 * outage turns into quick errors the callers serve around, never into waiting requests.
 */
export function connectRedis(url: string, onError: (error: Error) => void): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 500,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
  });
  redis.on('error', onError);
  return redis;
}
