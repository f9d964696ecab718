import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProcess, type Running } from '../../bench/lib/processes.js';
import { PG_URL, pgAvailable } from '../helpers/backends.js';
import { productInput } from '../helpers/fixtures.js';
import { REDIS_URL, redisAvailable, redisScope } from '../helpers/redis.js';

const TOKEN = 'two-node-operator-token-0123456789';

/** Two server processes on one PostgreSQL and one Redis, polling switched off: only the bus can tell B. */
describe.runIf(pgAvailable() && redisAvailable())('two API nodes', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const scope = redisScope();
  let a: Running;
  let b: Running;

  beforeAll(async () => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    const env = {
      DATABASE_URL: `${PG_URL}?schema=${schema}`,
      REDIS_URL,
      REDIS_PREFIX: scope.prefix,
      REBOUND_ADMIN_TOKEN: TOKEN,
      REBOUND_DEMO: 'false',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      REBOUND_INDEX_REFRESH_MS: '600000',
    };
    const args = ['--import', 'tsx', 'src/cli/main.ts', 'serve'];
    // Port 0: each node tells the port the system gave it.
    a = await startProcess(args, env, 0, '/readyz');
    b = await startProcess(args, env, 0, '/readyz');
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await scope.cleanup();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  });

  const admin = (node: Running, method: string, path: string, body?: unknown) =>
    fetch(`${node.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });

  it('serves on one node what was written through the other, told by the bus', async () => {
    const created = (await (await admin(a, 'POST', '/admin/v1/shops', { handle: 'twin', name: 'Twin' })).json()) as {
      keys: { public: string };
    };
    const key = created.keys.public;
    const staticOn = (node: Running) =>
      fetch(`${node.url}/api/v1/products/static?key=${key}&ids=1,2`).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { data: { id: number; title: string }[] },
      }));

    // The new shop's key works on B at once.
    expect((await staticOn(b)).status).toBe(200);

    expect((await admin(a, 'PUT', '/admin/v1/shops/twin/products', [productInput(1), productInput(2)])).status).toBe(
      200,
    );
    // The bus message travels beside the write's answer: B sees it within moments, never by polling
    // the store (its refresh is ten minutes away).
    await expect.poll(async () => (await staticOn(b)).body.data.map((p) => p.id)).toEqual([1, 2]);
    const cachedOnB = await staticOn(b);
    expect(cachedOnB.body.data[0]!.title).toBe('Product 1');

    // A change through A: B's cached answer is not served again.
    expect(
      (await admin(a, 'PUT', '/admin/v1/shops/twin/products', [productInput(1, { title: 'Renamed on A' })])).status,
    ).toBe(200);
    await expect.poll(async () => (await staticOn(b)).body.data[0]!.title).toBe('Renamed on A');

    // A ruleset saved through B answers through A.
    const ruleset = (await (
      await admin(b, 'POST', '/admin/v1/shops/twin/rulesets', {
        name: 'r',
        rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 2 }] }] }],
      })
    ).json()) as { ruleset: { id: number } };
    const customOnA = async () =>
      (
        (await (await fetch(`${a.url}/api/v1/custom/id/${ruleset.ruleset.id}?key=${key}`)).json()) as {
          data?: { id: number }[];
        }
      ).data;
    await expect.poll(async () => (await customOnA())?.map((p) => p.id)).toEqual([2]);
  });
});
