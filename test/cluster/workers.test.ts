import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runEventLoad } from '../../bench/lib/event-load.js';
import { startProcess } from '../../bench/lib/processes.js';
import { connect } from '../../src/store/connect.js';
import { backends } from '../helpers/backends.js';
import { productInput } from '../helpers/fixtures.js';
import { nodeClient } from './node-client.js';

const TOKEN = 'workers-operator-token-0123456789';
const SERVE = ['--import', 'tsx', 'src/cli/main.ts', 'serve'];

/**
 * REBOUND_WORKERS=2 with key routing off: one port shared by two processes on one SQLite file (the
 * operating system spreads the connections), metrics of both, one shutdown. Routing by key is
 * test/cluster/key-routing.test.ts.
 */
describe('a node of two worker processes', () => {
  const work = mkdtempSync(join(tmpdir(), 'rebound-workers-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const title =
    'serves from both workers on one port, writes every acknowledged event, reports both in /metrics ' +
    'and stops on SIGTERM';
  it(title, {
    timeout: 120_000,
  }, async () => {
    const database = `sqlite:${join(work, 'node.db')}`;
    const env = {
      DATABASE_URL: database,
      REBOUND_WORKERS: '2',
      REBOUND_KEY_ROUTING: 'false',
      REBOUND_ADMIN_TOKEN: TOKEN,
      REBOUND_DEMO: 'false',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
    };
    const node = await startProcess(SERVE, env, 0, '/readyz');
    try {
      const { call, metrics, bothServing } = nodeClient(node.url, TOKEN);
      // The second worker starts once the first listens: wait until both answer for the node.
      await bothServing();
      // Each worker started with the young generation and the allocator's setting of its budget (src/config/memory.ts).
      const workers = readFileSync(`/proc/${node.child.pid}/task/${node.child.pid}/children`, 'utf8').trim().split(' ');
      expect(workers).toHaveLength(2);
      for (const pid of workers) {
        expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toContain('MALLOC_MMAP_THRESHOLD_=131072');
        expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('--max-semi-space-size=4');
      }
      // Each answers for itself what it holds, and says which it is.
      const answering = new Set<string>();
      for (let i = 0; i < 8 && answering.size < 2; i++) {
        const residency = (await (await call('/admin/v1/node/residency')).json()) as { worker: number; pid: number };
        expect(workers).toContain(String(residency.pid));
        expect(residency.worker).toBeGreaterThan(0);
        answering.add(String(residency.pid));
      }
      expect(answering.size).toBe(2);

      const created = (await (
        await call('/admin/v1/shops', { method: 'POST', body: JSON.stringify({ handle: 'pair', name: 'Pair' }) })
      ).json()) as {
        keys: { public: string };
      };
      expect(
        (await call('/admin/v1/shops/pair/products', { method: 'PUT', body: JSON.stringify([productInput(1)]) }))
          .status,
      ).toBe(200);
      const uuid = randomUUID();
      const acknowledged = await Promise.all(
        Array.from({ length: 20 }, () =>
          call(
            `/api/v1/analytics/event?key=${created.keys.public}&subject=user&verb=viewed&noun=product` +
              `&shop_product_handle=product-1&uuid=${uuid}`,
            {
              method: 'POST',
            },
          ).then((r) => r.status),
        ),
      );
      expect(acknowledged).toEqual(new Array(20).fill(200));

      const text = await metrics();
      const served = (worker: string) =>
        text
          .split('\n')
          .filter(
            (l) =>
              l.startsWith('rebound_http_requests_total{') &&
              l.includes('/api/v1/analytics/event') &&
              l.includes(`worker="${worker}"`),
          )
          .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
      expect(served('1')).toBeGreaterThan(0);
      expect(served('2')).toBeGreaterThan(0);
      expect(served('1') + served('2')).toBe(20);

      const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
      node.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const { db } = connect(database);
      const stored = await db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      await db.destroy();
      expect(Number(stored.n)).toBe(20);
    } finally {
      await node.stop();
    }
  });
});

/** The crash test of docs/api.md, "Events", on a node of two workers: every process killed with SIGKILL mid-load. */
describe.each(backends().map((b) => b.name))('event intake of two workers on %s', (database) => {
  it('loses no acknowledged event when every process of the node is killed with SIGKILL', {
    timeout: 180_000,
  }, async () => {
    const result = await runEventLoad({
      database,
      clients: 10,
      seconds: 5,
      crashAfterMs: 2500,
      minAcknowledged: 60,
      serverArgs: SERVE,
      workers: 2,
    });
    expect(result.crashed).toBe(true);
    expect(result.acknowledged).toBeGreaterThan(50);
    expect(result.lost).toBe(0);
    expect(result.stored).toBeGreaterThanOrEqual(result.acknowledged);
    expect(result.stored).toBeLessThanOrEqual(result.sent);
  });
});
