import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redact } from '../../src/config/config.js';

describe('loadConfig', () => {
  it('has local-first defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: 'sqlite:/srv/app/data/rebound.db',
      redisUrl: null,
      redisPrefix: 'rebound:',
      adminToken: null,
      publicUrl: 'http://localhost:3000',
      demo: true,
      logLevel: 'info',
      cacheTtlSeconds: 60,
      memoryBudgetMb: 512,
      workers: availableParallelism(),
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u:p@db/rebound',
      REDIS_URL: 'redis://cache:6379',
      REBOUND_ADMIN_TOKEN: 'x'.repeat(32),
      REBOUND_PUBLIC_URL: 'https://recs.example.com/',
      REBOUND_DEMO: 'no',
      LOG_LEVEL: 'WARN',
      CACHE_TTL_SECONDS: '5',
      REBOUND_MEMORY_BUDGET_MB: '2048',
      REBOUND_WORKERS: '1',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u:p@db/rebound',
      redisUrl: 'redis://cache:6379',
      publicUrl: 'https://recs.example.com',
      demo: false,
      logLevel: 'warn',
      cacheTtlSeconds: 5,
      memoryBudgetMb: 2048,
      workers: 1,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ DATABASE_URL: 'postgres://db/rebound?schema=ShopGroup1' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://db/rebound?schema=bad-name' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://db/rebound?schema=1st' }, 'DATABASE_URL'],
    [{ REDIS_PREFIX: 'bad prefix!' }, 'REDIS_PREFIX'],
    [{ REBOUND_ADMIN_TOKEN: 'short' }, 'REBOUND_ADMIN_TOKEN'],
    [{ REBOUND_PUBLIC_URL: 'not a url' }, 'REBOUND_PUBLIC_URL'],
    [{ REBOUND_DEMO: 'perhaps' }, 'REBOUND_DEMO'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ CACHE_TTL_SECONDS: '-1' }, 'CACHE_TTL_SECONDS'],
    [{ REBOUND_WORKERS: '0' }, 'REBOUND_WORKERS'],
    [{ REBOUND_SECRET_KEY: 'ab'.repeat(16) }, 'REBOUND_SECRET_KEY'],
    [{ REBOUND_SECRET_KEY: 'zz'.repeat(32) }, 'REBOUND_SECRET_KEY'],
    [{ REBOUND_BILLING_TIMEOUT_MS: '5' }, 'REBOUND_BILLING_TIMEOUT_MS'],
    [{ TRUST_PROXY: 'everyone' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1, 300.1.1.1' }, 'TRUST_PROXY'],
    [{ HEADERS_TIMEOUT_MS: '40000' }, 'HEADERS_TIMEOUT_MS'],
    [{ REQUEST_TIMEOUT_MS: '10' }, 'REQUEST_TIMEOUT_MS'],
    [{ REBOUND_MEMORY_BUDGET_MB: '64' }, 'REBOUND_MEMORY_BUDGET_MB'],
    [{ REBOUND_MEMORY_BUDGET_MB: '1.5GB' }, 'REBOUND_MEMORY_BUDGET_MB'],
  ])('stops on %j with one line naming the setting', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('takes a lower-case schema, and never repeats a password it was given', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/rebound?schema=shop_group_1' }).databaseUrl).toBe(
      'postgres://db/rebound?schema=shop_group_1',
    );
    expect(() => loadConfig({ REDIS_URL: 'http://user:pa55word@cache:6379' })).toThrow(
      'got "http://user:***@cache:6379/".',
    );
  });

  it('trusts no proxy by default, and reads every form of TRUST_PROXY', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7 ,loopback,::1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'loopback',
      '::1',
      'fd00::/8',
    ]);
  });

  it('bounds every connection by default: headers 10 s, request 30 s, idle keep-alive 72 s', () => {
    expect(loadConfig({}).timeouts).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
    });
  });

  it('reads the secret key as 32 bytes, and has none by default', () => {
    expect(loadConfig({}).secretKey).toBeNull();
    const key = loadConfig({ REBOUND_SECRET_KEY: '0f'.repeat(32) }).secretKey;
    expect(key?.length).toBe(32);
    expect(key?.[0]).toBe(15);
    expect(loadConfig({}).billingTimeoutMs).toBe(5000);
  });

  it('hides database passwords in errors', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/x' })).toThrow(/user:\*\*\*@/);
  });
});

describe('redact', () => {
  // Connection strings as operators write them, percent-encoding forgotten: the password never shows.
  it.each([
    ['postgres://rebound:s3cret@db:5432/rebound', 'postgres://rebound:***@db:5432/rebound'],
    ['postgres://:s3cret@db/rebound', 'postgres://:***@db/rebound'],
    ['redis://:s3cret@cache:6379/0', 'redis://:***@cache:6379/0'],
    ['postgres://rebound:s3@cret@db/rebound', 'postgres://rebound:***@db/rebound'],
    ['postgres://rebound:s3/cret@db/rebound', 'postgres://rebound:***@db/rebound'],
    ['postgres://rebound:s3#cret@db/rebound', 'postgres://rebound:***@db/rebound'],
    ['postgres://rebound:1234/5678@db/rebound', 'postgres://rebound:***@db/rebound'],
  ])('hides the password of %s', (url, shown) => {
    expect(redact(url)).toBe(shown);
  });

  it.each(['postgres://rebound@db/rebound', 'redis://cache:6379', 'sqlite:data/rebound.db'])(
    'leaves %s, which holds no password, as it is',
    (url) => {
      expect(redact(url)).toBe(url);
    },
  );
});
