import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess } from '../../bench/lib/processes.js';
import { ownerSlot } from '../../src/cluster/routing.js';
import { connect } from '../../src/store/connect.js';
import { productInput } from '../helpers/fixtures.js';
import { nodeClient } from './node-client.js';

const TOKEN = 'routing-operator-token-0123456789';
const SERVE = ['--import', 'tsx', 'src/cli/main.ts', 'serve'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The worker processes of a node, oldest first: slot 0 is forked first, slot 1 once it serves. */
function workerPids(primary: number): number[] {
  const children = readFileSync(`/proc/${primary}/task/${primary}/children`, 'utf8').trim().split(/\s+/).map(Number);
  const startedAt = (pid: number) =>
    Number(
      readFileSync(`/proc/${pid}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ')[19],
    );
  return children.sort((a, b) => startedAt(a) - startedAt(b));
}

/** One counter of /metrics per worker label ("1", "2", …), summed over the series that contain `filter`. */
function perWorker(text: string, name: string, filter = ''): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) || !line.includes(filter)) continue;
    const worker = /worker="(\d+)"/.exec(line)?.[1];
    if (worker) out[worker] = (out[worker] ?? 0) + Number(line.split(' ').pop());
  }
  return out;
}

/** REBOUND_WORKERS=2 with key routing (the default): each shop answered and loaded by the worker its key hashes to. */
describe('a node of two workers routing by key', () => {
  const work = mkdtempSync(join(tmpdir(), 'rebound-routing-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const title =
    'answers each shop from its own worker, is not held by a silent client, ' +
    'moves a dead worker’s shops and stores every acknowledged event';
  it(title, {
    timeout: 180_000,
  }, async () => {
    const database = `sqlite:${join(work, 'node.db')}`;
    const env = {
      DATABASE_URL: database,
      REBOUND_WORKERS: '2',
      REBOUND_ADMIN_TOKEN: TOKEN,
      REBOUND_DEMO: 'false',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
    };
    const node = await startProcess(SERVE, env, 0, '/readyz');
    const started = Date.now();
    try {
      const { call, metrics, bothServing } = nodeClient(node.url, TOKEN);
      // Requests without a key go to the workers in turn: both answer for the node once both serve.
      await bothServing();

      // Two shops whose public keys hash to different slots (slot 0 is worker 1, slot 1 worker 2).
      const shops: { handle: string; key: string; worker: string }[] = [];
      for (let i = 0; shops.length < 2 && i < 40; i++) {
        const res = await call('/admin/v1/shops', {
          method: 'POST',
          body: JSON.stringify({ handle: `shop-${i}`, name: `Shop ${i}` }),
        });
        const key = ((await res.json()) as { keys: { public: string } }).keys.public;
        const worker = String(ownerSlot(key, [0, 1])! + 1);
        if (shops.some((s) => s.worker === worker)) continue;
        const put = await call(`/admin/v1/shops/shop-${i}/products`, {
          method: 'PUT',
          body: JSON.stringify([productInput(1)]),
        });
        expect(put.status).toBe(200);
        shops.push({ handle: `shop-${i}`, key, worker });
      }
      const [a, b] = shops as [(typeof shops)[0], (typeof shops)[0]];
      expect(a.worker).not.toBe(b.worker);

      // A silent connection and one that stops mid-head: neither holds the primary.
      const silent = connectTcp(Number(new URL(node.url).port), '127.0.0.1');
      const partial = connectTcp(Number(new URL(node.url).port), '127.0.0.1', () =>
        partial.write(`GET /api/v1/products/trending_products?key=${a.key} HTTP/1.1\r\nHost: x\r\n`),
      );
      silent.on('error', () => {});
      partial.on('error', () => {});

      const trending = (shop: typeof a, viaHeader = false) =>
        call(`/api/v1/products/trending_products?limit=5${viaHeader ? '' : `&key=${shop.key}`}`, {
          headers: viaHeader ? { 'x-api-key': shop.key } : {},
        }).then((r) => r.status);
      const route = 'route="/api/v1/products/trending_products"';
      // A key made through the other worker reaches its own one with the next refresh of its key index.
      for (const shop of [a, b]) while ((await trending(shop)) === 401) await sleep(100);
      for (const shop of [a, b]) {
        const before = await metrics();
        for (let i = 0; i < 6; i++) expect(await trending(shop, i % 2 === 1)).toBe(200);
        const after = await metrics();
        const other = shop === a ? b.worker : a.worker;
        const served = (text: string, worker: string) =>
          perWorker(text, 'rebound_http_requests_total', route)[worker] ?? 0;
        const loads = (text: string, worker: string) => perWorker(text, 'rebound_shop_loads')[worker] ?? 0;
        // Every request of the shop answered by its own worker; the other one neither answered nor loaded it.
        expect(served(after, shop.worker) - served(before, shop.worker)).toBe(6);
        expect(served(after, other) - served(before, other)).toBe(0);
        expect(loads(after, other) - loads(before, other)).toBe(0);
      }
      silent.destroy();
      partial.destroy();

      // Events of both shops, acknowledged; then the worker of shop a dies.
      const event = (shop: typeof a) =>
        call(
          `/api/v1/analytics/event?key=${shop.key}&subject=user&verb=viewed&noun=product` +
            `&shop_product_handle=product-1&uuid=${randomUUID()}`,
          { method: 'POST' },
        ).then(
          (r) => r.status,
          () => 0,
        );
      let acknowledged = 0;
      for (let i = 0; i < 10; i++) for (const shop of [a, b]) if ((await event(shop)) === 200) acknowledged++;
      expect(acknowledged).toBe(20);

      // A worker that dies within 10 s of its start stops the node (crash loop): let them age past that.
      await sleep(Math.max(0, 10_500 - (Date.now() - started)));
      const victim = workerPids(node.child.pid!)[Number(a.worker) - 1]!;
      const survivor = b.worker;
      const survivorLoads = perWorker(await metrics(), 'rebound_shop_loads')[survivor] ?? 0;
      process.kill(victim, 'SIGKILL');
      // Until the primary sees the exit a connection may still go to the dead worker: ask again until answered.
      let answeredBySurvivor = false;
      while (!answeredBySurvivor) {
        const status = await trending(a).catch(() => 0);
        if (status === 200)
          answeredBySurvivor = (perWorker(await metrics(), 'rebound_shop_loads')[survivor] ?? 0) > survivorLoads;
        else await sleep(50);
      }
      for (let i = 0; i < 5; i++) for (const shop of [a, b]) if ((await event(shop)) === 200) acknowledged++;
      expect(acknowledged).toBe(30);

      const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
      node.child.kill('SIGTERM');
      await exited;
      const { db } = connect(database);
      const stored = await db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      await db.destroy();
      expect(Number(stored.n)).toBe(acknowledged);
    } finally {
      await node.stop();
    }
  });
});
