import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { compose, type Services } from '../../src/compose.js';
import { buildApp } from '../../src/http/app.js';
import type { FastifyInstance } from 'fastify';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { PG_URL, pgAvailable } from '../helpers/backends.js';
import { productInput } from '../helpers/fixtures.js';
import { redisAvailable, redisScope } from '../helpers/redis.js';
import { tcpProxy } from '../helpers/tcp-proxy.js';

const U = '3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b';

/** The service with its PostgreSQL and Redis behind proxies the test cuts and restores. */
describe.runIf(pgAvailable() && redisAvailable())('outages of PostgreSQL and Redis', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const scope = redisScope();
  let pgProxy: Awaited<ReturnType<typeof tcpProxy>>;
  let redisProxy: Awaited<ReturnType<typeof tcpProxy>>;
  let services: Services;
  let app: FastifyInstance;
  let key: string;
  let coldKey: string;
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

  beforeAll(async () => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    const url = new URL(PG_URL);
    pgProxy = await tcpProxy(Number(url.port || 5432), url.hostname);
    redisProxy = await tcpProxy(6379);
    url.host = `127.0.0.1:${pgProxy.port}`;
    const config = loadConfig({
      DATABASE_URL: `${url.toString()}?schema=${schema}`,
      REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
      REDIS_PREFIX: scope.prefix,
      REBOUND_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'silent',
    });
    services = await compose(config);
    app = await buildApp(services, config, { logger: false });
    key = (
      await app.inject({
        method: 'POST',
        url: '/admin/v1/shops',
        headers: auth,
        payload: { handle: 'down', name: 'Down' },
      })
    ).json().keys.public;
    await app.inject({
      method: 'PUT',
      url: '/admin/v1/shops/down/products',
      headers: auth,
      payload: [productInput(1), productInput(2)],
    });
    coldKey = (
      await app.inject({
        method: 'POST',
        url: '/admin/v1/shops',
        headers: auth,
        payload: { handle: 'cold', name: 'Cold' },
      })
    ).json().keys.public;
  });

  afterAll(async () => {
    await app?.close();
    await services?.close();
    pgProxy?.close();
    redisProxy?.close();
    await scope.cleanup();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  });

  it(
    'keeps reads answering and refuses writes and events with ' + '503 while PostgreSQL is down, then recovers',
    async () => {
      // The shop's first request loads it into memory (retried: a busy database may be slow to give a connection).
      await vi.waitFor(
        async () => expect((await app.inject(`/api/v1/products/static?key=${key}&ids=1`)).statusCode).toBe(200),
        {
          timeout: 60_000,
          interval: 200,
        },
      );
      await pgProxy.cut();
      const read = await app.inject(`/api/v1/products/static?key=${key}&ids=1,2&bust_cache=yes`);
      expect(read.statusCode).toBe(200);
      expect(read.json().data.map((p: { id: number }) => p.id)).toEqual([1, 2]);
      // A shop this node does not hold cannot be loaded meanwhile: a 503 to retry, never a 500.
      const cold = await app.inject(`/api/v1/products/static?key=${coldKey}&ids=1`);
      expect(cold.statusCode).toBe(503);
      expect(cold.headers['retry-after']).toBeDefined();

      const write = await app.inject({
        method: 'PUT',
        url: '/admin/v1/shops/down/products',
        headers: auth,
        payload: [productInput(3)],
      });
      expect(write.statusCode).toBe(503);
      expect(write.headers['retry-after']).toBeDefined();
      expect(write.json().error).toContain('unavailable');

      const event = await app.inject({
        method: 'POST',
        url:
          `/api/v1/analytics/event?key=${key}&subject=user&verb=viewed` +
          `&noun=product&shop_product_handle=product-1&uuid=${U}`,
      });
      expect(event.statusCode).toBe(503);
      expect(event.headers['retry-after']).toBeDefined();
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(503);

      await pgProxy.restore();
      await vi.waitFor(async () => expect((await app.inject('/readyz')).statusCode).toBe(200), {
        timeout: 60_000,
        interval: 200,
      });
      expect(
        (
          await app.inject({
            method: 'PUT',
            url: '/admin/v1/shops/down/products',
            headers: auth,
            payload: [productInput(3)],
          })
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await app.inject({
            method: 'POST',
            url:
              `/api/v1/analytics/event?key=${key}&subject=user&verb=viewed` +
              `&noun=product&shop_product_handle=product-1&uuid=${U}`,
          })
        ).json(),
      ).toEqual({ data: 'Received' });
      // Nothing refused during the outage was stored: one view, the one after recovery.
      const events = (await app.inject({ url: `/admin/v1/shops/down/events?uuid=${U}`, headers: auth })).json().data;
      expect(events).toHaveLength(1);
      expect((await app.inject(`/api/v1/products/static?key=${key}&ids=3`)).json().data).toHaveLength(1);
    },
  );

  it('serves around Redis when it is down: the cache is bypassed, nothing errors', async () => {
    await redisProxy.cut();
    for (let i = 0; i < 3; i++) {
      const res = await app.inject(`/api/v1/products/trending_products?key=${key}&limit=${i + 1}`);
      expect(res.statusCode).toBe(200);
    }
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/admin/v1/shops/down/products',
          headers: auth,
          payload: [productInput(4)],
        })
      ).statusCode,
    ).toBe(200);
    expect((await app.inject(`/api/v1/products/static?key=${key}&ids=4`)).json().data).toHaveLength(1);
    await redisProxy.restore();
    await vi.waitFor(
      async () => {
        await app.inject(`/api/v1/products/static?key=${key}&ids=1,4`);
        expect(services.answers.remoteErrors).toBeGreaterThan(0);
      },
      { timeout: 30_000 },
    );
  });
});
