import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLATFORM_ENV, PLATFORM_WEBHOOK_SECRET } from '../helpers/fake-platform/connect.js';
import { FakePlatform } from '../helpers/fake-platform/server.js';

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'rebound-connect-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const env = {
  ...process.env,
  ...PLATFORM_ENV,
  DATABASE_URL: `sqlite:${join(work, 'connect.db')}`,
  LOG_LEVEL: 'silent',
  REBOUND_ADMIN_TOKEN: 'cli-test-operator-token-0123456789',
};

/** `rebound <args>` as a child process; asynchronous, so the fake platform in this process can answer it. */
function rebound(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('rebound connect', () => {
  it('connects a shop, shows the sync progressing, and ends when everything is pulled', async () => {
    const fake = await new FakePlatform({ shape: { products: 30, collections: 3, customers: 8, orders: 25 } }).start();
    try {
      const cli = (...args: string[]) =>
        spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env }).status;
      expect(cli('migrate')).toBe(0);
      expect(cli('shops', 'create', '--handle', 'cli-acme', '--name', 'Acme')).toBe(0);
      const args = [
        'connect',
        'cli-acme',
        '--domain',
        'acme.myshopify.com',
        '--token',
        fake.token,
        '--webhook-secret',
        PLATFORM_WEBHOOK_SECRET,
        '--api-url',
        fake.apiUrl,
      ];
      const result = await rebound(args);
      expect(result.code, result.err).toBe(0);
      const lines = result.out.trim().split('\n');
      expect(lines.at(-2)).toMatch(/^\[#{24}\] full done +products 30 · collections 3 · customers 8 · orders 25$/);
      expect(lines.at(-1)).toBe('Connected acme.myshopify.com: 15 webhook subscriptions, status connected.');
      expect(result.out).not.toContain(fake.token);
      const reconciled = await rebound(['connect', 'cli-acme', '--reconcile']);
      expect(reconciled.code, reconciled.err).toBe(0);
      expect(reconciled.out).toMatch(/reconcile done/);
      const missing = await rebound(['connect', 'cli-acme']);
      expect(missing).toMatchObject({ code: 1 });
      expect(missing.err).toContain('connect needs a shop handle, --domain and --token');
    } finally {
      await fake.stop();
    }
  });
});
