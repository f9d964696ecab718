import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startProcess } from '../../bench/lib/processes.js';
import { productInput } from '../helpers/fixtures.js';
import { nodeClient } from './node-client.js';

const TOKEN = 'relay-operator-token-0123456789ab';
const SERVE = ['--import', 'tsx', 'src/cli/main.ts', 'serve'];

/**
 * Two workers routing by key, no Redis, and a poll of the shops' versions ten minutes apart: what
 * one worker writes reaches the other only through the primary's relay of the change bus (an
 * erasure must reach the worker that holds the shop's model at once, src/cache/change-bus.ts).
 */
describe('a node of two workers without Redis', () => {
  const work = mkdtempSync(join(tmpdir(), 'rebound-relay-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("tells each worker the other's writes at once, through the primary", { timeout: 120_000 }, async () => {
    const env = {
      DATABASE_URL: `sqlite:${join(work, 'node.db')}`,
      REBOUND_WORKERS: '2',
      REBOUND_ADMIN_TOKEN: TOKEN,
      REBOUND_DEMO: 'false',
      REBOUND_INDEX_REFRESH_MS: '600000',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
    };
    const node = await startProcess(SERVE, env, 0, '/readyz');
    try {
      const { call, bothServing } = nodeClient(node.url, TOKEN);
      await bothServing();
      // Requests without a key (the operator's) go to the workers in turn; the shop's own go to one of them.
      const created = await call('/admin/v1/shops', {
        method: 'POST',
        body: JSON.stringify({ handle: 'relayed', name: 'Relayed' }),
      });
      expect(created.status).toBe(201);
      const key = ((await created.json()) as { keys: { public: string } }).keys.public;
      const titleServed = async () => {
        const res = await call(`/api/v1/products/static?key=${key}&ids=1`);
        return res.status === 200 ? ((await res.json()) as { data: { title: string }[] }).data[0]?.title : res.status;
      };
      // Two writes in a row: one of them is made by the worker that does not serve the shop.
      for (const title of ['First', 'Second', 'Third']) {
        const put = await call('/admin/v1/shops/relayed/products', {
          method: 'PUT',
          body: JSON.stringify([productInput(1, { title })]),
        });
        expect(put.status).toBe(200);
        await vi.waitFor(async () => expect(await titleServed()).toBe(title), { timeout: 15_000, interval: 100 });
      }
    } finally {
      await node.stop();
    }
  });
});
