import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../bench/lib/processes.js';
import { loadConfig } from '../../src/config/config.js';
import { compose } from '../../src/compose.js';
import { buildApp } from '../../src/http/app.js';
import { backends, PG_URL } from '../helpers/backends.js';

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/**
 * Every public list endpoint (from /api/v1/sources), every ruleset, static products and a reactivation, as answered.
 */
async function publicAnswers(url: string, keys: { public: string; private: string }): Promise<Record<string, string>> {
  const config = loadConfig({
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    REBOUND_DEMO: 'false',
    REBOUND_MODEL_INTERVAL_S: '86400',
  });
  const services = await compose(config);
  const app = await buildApp(services, config, { logger: false });
  try {
    const get = async (path: string) => {
      const res = await app.inject({ method: 'GET', url: path });
      // Reactivation links are signed with an expiry counted from now: the one part that differs by design.
      return `${res.statusCode} ${res.body.replace(/expires=\d+&sig=[0-9a-f]+/g, 'expires=…')}`;
    };
    const sources = JSON.parse((await get(`/api/v1/sources?key=${keys.public}`)).slice(4)) as {
      data: { path: string }[];
    };
    const paths = [
      ...sources.data.map(
        (s) =>
          `/api/v1${s.path}?key=${keys.public}&shop_product_ids=7000000001&shop_customer_id=1` +
          '&uuid=00000000-0000-4000-8000-000000000001&q=jacket&handles=fjord-enamel-camp-pot',
      ),
      ...[1, 2, 3, 4, 5].map(
        (id) =>
          `/api/v1/custom/id/${id}?key=${keys.public}&shop_product_ids=7000000001` +
          '&cart_subtotal=180.00&shop_customer_id=1',
      ),
      `/api/v1/products/static?key=${keys.public}&ids=7000000001,7000000002&country_code=DE`,
      `/api/v1/billing/reactivate?key=${keys.private}&billing_customer_id=80000`,
    ];
    const answers: Record<string, string> = {};
    for (const path of paths) answers[path] = await get(path);
    return answers;
  } finally {
    await app.close();
    await services.close();
  }
}

describe.each(backends())('rebound backup and restore ($name)', (backend) => {
  const work = mkdtempSync(join(tmpdir(), 'rebound-backup-'));
  afterAll(async () => {
    await backend.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  it('restores a loaded shop into a fresh database that answers every public endpoint the same', async () => {
    const source = await backend.url();
    const seeded = await runCli(['seed-demo'], { DATABASE_URL: source, LOG_LEVEL: 'warn' });
    expect(seeded.code, seeded.output).toBe(0);
    const keys = {
      public: /public key: (\S+)/.exec(seeded.output)![1]!,
      private: /private key: (\S+)/.exec(seeded.output)![1]!,
    };
    const before = await publicAnswers(source, keys);
    expect(Object.values(before).filter((a) => a.startsWith('200 ')).length).toBeGreaterThan(8);

    const file = join(work, 'backup.db');
    const backedUp = await runCli(['backup', file], { DATABASE_URL: source, LOG_LEVEL: 'warn' });
    expect(backedUp.code, backedUp.output).toBe(0);

    // The fresh database: a new SQLite file, or the PostgreSQL schema dropped (the dump recreates it).
    let target = source;
    if (backend.name === 'sqlite') target = await backend.url();
    else {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`drop schema ${new URL(source).searchParams.get('schema')} cascade`);
      await client.end();
    }
    const restored = await runCli(['restore', file], { DATABASE_URL: target, LOG_LEVEL: 'warn' });
    expect(restored.code, restored.output).toBe(0);
    // A second restore is refused: restore never mixes into a database that holds data.
    expect((await runCli(['restore', file], { DATABASE_URL: target, LOG_LEVEL: 'warn' })).code).toBe(1);

    expect(await publicAnswers(target, keys)).toEqual(before);
  }, 240_000);
});
