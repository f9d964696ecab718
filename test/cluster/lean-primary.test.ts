import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess } from '../../bench/lib/processes.js';

const TOKEN = 'lean-primary-operator-token-012345';

/**
 * The primary of a node of several workers only starts, routes and watches them (docs/scaling.md,
 * "The memory budget"): the server's modules — HTTP framework, store, services — load in the
 * workers alone. Every process of the node writes the modules it resolves to a file of its own.
 */
describe('the primary of a node of two workers', () => {
  const work = mkdtempSync(join(tmpdir(), 'rebound-lean-primary-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('serves and answers /metrics for both workers without loading the server modules itself', async () => {
    const node = await startProcess(
      ['--import', 'tsx', '--import', './test/cluster/module-log.mjs', 'src/cli/main.ts', 'serve'],
      {
        DATABASE_URL: `sqlite:${join(work, 'node.db')}`,
        REBOUND_WORKERS: '2',
        REBOUND_KEY_ROUTING: 'true',
        REBOUND_ADMIN_TOKEN: TOKEN,
        REBOUND_DEMO: 'false',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        MODULE_LOG_DIR: work,
      },
      0,
      '/readyz',
    );
    try {
      // The primary aggregates the workers' registries: its metrics client is loaded by this scrape.
      const metrics = () => fetch(`${node.url}/metrics`).then((r) => r.text());
      await expect.poll(metrics).toMatch(/worker="2"/);
      expect(await metrics()).toMatch(/worker="1"/);

      const loaded = (pid: number) => readFileSync(join(work, String(pid)), 'utf8');
      const primary = loaded(node.child.pid!);
      const workers = readdirSync(work)
        .filter((name) => /^\d+$/.test(name) && name !== String(node.child.pid))
        .map((name) => loaded(Number(name)));
      expect(workers).toHaveLength(2);
      const server = [/\/src\/main\.ts/, /\/src\/compose\.ts/, /\/src\/store\//, /\/node_modules\/fastify\//];
      // The log is honest: each worker resolves every one of them.
      for (const modules of workers) for (const pattern of server) expect(modules).toMatch(pattern);
      for (const pattern of server) expect(primary).not.toMatch(pattern);
      expect(primary).toMatch(/\/src\/cluster\/primary\.ts/);
      expect(primary).toMatch(/\/node_modules\/prom-client\//);
    } finally {
      await node.stop();
    }
  });
});
