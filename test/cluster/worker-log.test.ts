import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess } from '../../bench/lib/processes.js';

describe('the log of a node of two workers routing by key', () => {
  const work = mkdtempSync(join(tmpdir(), 'rebound-worker-log-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("names no address but the node's as one the server listens at", { timeout: 120_000 }, async () => {
    const node = await startProcess(
      ['--import', 'tsx', 'src/cli/main.ts', 'serve'],
      {
        DATABASE_URL: `sqlite:${join(work, 'node.db')}`,
        REBOUND_WORKERS: '2',
        REBOUND_KEY_ROUTING: 'true',
        REBOUND_ADMIN_TOKEN: 'worker-log-operator-token-0123456789',
        REBOUND_DEMO: 'false',
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
      },
      0,
      '/readyz',
    );
    try {
      // Both workers have started once the second says it is ready.
      while ((node.output().match(/"msg":"ready"/g) ?? []).length < 2) await new Promise((r) => setTimeout(r, 100));
      const listening = [...node.output().matchAll(/Server listening at (http:\/\/[^"\s]+)/g)].map((m) => m[1]);
      expect(listening.every((url) => url === node.url)).toBe(true);
      expect(node.output().match(/serving the node's port through its primary/g)).toHaveLength(2);
    } finally {
      await node.stop();
    }
  });
});
