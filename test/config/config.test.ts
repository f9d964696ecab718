import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('loadConfig', () => {
  it('has local-first defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 3000, host: '0.0.0.0', databaseUrl: 'sqlite:/srv/app/data/rebound.db', redisUrl: null, redisPrefix: 'rebound:', adminToken: null,
      publicUrl: 'http://localhost:3000', demo: true, logLevel: 'info', cacheTtlSeconds: 60, memoryBudgetMb: 512,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '8080', HOST: '127.0.0.1', DATABASE_URL: 'postgres://u:p@db/rebound', REDIS_URL: 'redis://cache:6379',
      REBOUND_ADMIN_TOKEN: 'x'.repeat(32), REBOUND_PUBLIC_URL: 'https://recs.example.com/', REBOUND_DEMO: 'no', LOG_LEVEL: 'WARN', CACHE_TTL_SECONDS: '5',
      REBOUND_MEMORY_BUDGET_MB: '2048',
    });
    expect(config).toMatchObject({
      port: 8080, host: '127.0.0.1', databaseUrl: 'postgres://u:p@db/rebound', redisUrl: 'redis://cache:6379',
      publicUrl: 'https://recs.example.com', demo: false, logLevel: 'warn', cacheTtlSeconds: 5, memoryBudgetMb: 2048,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ REDIS_PREFIX: 'bad prefix!' }, 'REDIS_PREFIX'],
    [{ REBOUND_ADMIN_TOKEN: 'short' }, 'REBOUND_ADMIN_TOKEN'],
    [{ REBOUND_PUBLIC_URL: 'not a url' }, 'REBOUND_PUBLIC_URL'],
    [{ REBOUND_DEMO: 'perhaps' }, 'REBOUND_DEMO'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ CACHE_TTL_SECONDS: '-1' }, 'CACHE_TTL_SECONDS'],
    [{ REBOUND_MEMORY_BUDGET_MB: '64' }, 'REBOUND_MEMORY_BUDGET_MB'],
    [{ REBOUND_MEMORY_BUDGET_MB: '1.5GB' }, 'REBOUND_MEMORY_BUDGET_MB'],
  ])('stops on %j with one line naming the setting', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('hides database passwords in errors', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/x' })).toThrow(/user:\*\*\*@/);
  });
});
