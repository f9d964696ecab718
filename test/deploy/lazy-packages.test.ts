import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';

const run = promisify(execFile);

/** The packages a composed server holds on this database, REDIS_URL unset (test/helpers/loaded-packages.ts). */
async function loadedPackages(databaseUrl: string): Promise<string[]> {
  const env = { ...process.env };
  delete env.REDIS_URL;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/helpers/loaded-packages.ts', databaseUrl], {
    cwd: join(import.meta.dirname, '..', '..'),
    env,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as string[];
}

/**
 * A server loads the clients only some configurations use when it first needs them: each is MBs
 * of heap in every process (docs/scaling.md, "What a fresh process is made of").
 */
describe('a server without Redis that has not called out', () => {
  const work = mkdtempSync(join(tmpdir(), 'rebound-lazy-packages-'));
  const postgres = backends().find((backend) => backend.name === 'postgres');
  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    await postgres?.cleanup();
  });

  it('on SQLite holds neither the PostgreSQL driver, the Redis client nor the HTTP client', async () => {
    const packages = await loadedPackages(`sqlite:${join(work, 'lazy.db')}`);
    // The listing is honest: the server's own packages are there.
    expect(packages).toEqual(expect.arrayContaining(['fastify', 'better-sqlite3', 'prom-client']));
    for (const name of ['pg', 'ioredis', 'undici']) expect(packages).not.toContain(name);
  });

  it.runIf(postgres)('on PostgreSQL holds its driver, and not the Redis client nor the HTTP client', async () => {
    const packages = await loadedPackages(await postgres!.url());
    expect(packages).toContain('pg');
    for (const name of ['ioredis', 'undici']) expect(packages).not.toContain(name);
  });
});
