import { createServer, type Server } from 'node:net';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { settingAtFault } from '../../src/cli/errors.js';

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'rebound-cli-errors-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `rebound <args>` from the sources; what an operator sees on the terminal. */
function rebound(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', REBOUND_DEMO: 'false', REBOUND_ADMIN_TOKEN: 'x'.repeat(32), ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: result.status, err: result.stderr };
}

async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** A loopback port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const { server, port } = await listening();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('start-up failures an operator fixes in the environment', () => {
  it.each(['1', '2'])('names PORT in one line when the port is taken (%s worker(s))', async (workers) => {
    const { server, port } = await listening();
    try {
      const run = rebound(['serve'], {
        DATABASE_URL: `sqlite:${join(work, `port-${workers}.db`)}`,
        PORT: String(port),
        HOST: '127.0.0.1',
        REBOUND_WORKERS: workers,
      });
      expect(run.code).toBe(1);
      // One line: no stack, and no worker outliving its primary to print one.
      expect(run.err).toBe(`rebound: port ${port} on 127.0.0.1 is taken by another process (PORT, HOST).\n`);
    } finally {
      server.close();
    }
  });

  it.each([
    // Without a resolver to ask, the lookup fails with EAI_AGAIN instead.
    ['nonexistent.invalid', /^nonexistent\.invalid does not resolve to an address \(HOST\): (ENOTFOUND|EAI_AGAIN)\.$/],
    // TEST-NET-1 (RFC 5737): an address of no machine here.
    ['192.0.2.1', /^192\.0\.2\.1 is not an address of this machine \(HOST\)\.$/],
  ])('names HOST in one line when it is %s', (host, line) => {
    for (const workers of ['1', '2']) {
      const run = rebound(['serve'], {
        DATABASE_URL: `sqlite:${join(work, `host-${workers}.db`)}`,
        PORT: '0',
        HOST: host,
        REBOUND_WORKERS: workers,
      });
      expect(run.code, `${workers} worker(s)`).toBe(1);
      expect(run.err.replace(/^rebound: /, '').replace(/\n$/, ''), `${workers} worker(s)`).toMatch(line);
      expect(run.err.split('\n')).toHaveLength(2);
    }
  });

  it('names DATABASE_URL when PostgreSQL accepts the connection and never answers', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const run = await new Promise<{ code: number | null; err: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'migrate'], {
          cwd: ROOT,
          env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: `postgres://rebound:pw@127.0.0.1:${port}/rebound` },
        });
        let err = '';
        child.stderr.on('data', (d: Buffer) => {
          err += d.toString();
        });
        child.on('exit', (code) => resolve({ code, err }));
      });
      expect(run).toEqual({
        code: 1,
        err:
          `rebound: cannot reach the database at postgres://rebound:***@127.0.0.1:${port}/rebound ` +
          '(DATABASE_URL): no answer within the connection timeout.\n',
      });
    } finally {
      silent.close();
    }
  }, 60_000);

  it('names DATABASE_URL, without its password, when PostgreSQL is out of reach', async () => {
    const port = await closedPort();
    const run = rebound(['migrate'], { DATABASE_URL: `postgres://rebound:hunter2@127.0.0.1:${port}/rebound` });
    expect(run).toEqual({
      code: 1,
      err:
        `rebound: cannot reach the database at postgres://rebound:***@127.0.0.1:${port}/rebound ` +
        '(DATABASE_URL): ECONNREFUSED.\n',
    });
  });

  it('names DATABASE_URL when the SQLite file is not a database', () => {
    const file = join(work, 'not-a-database.db');
    writeFileSync(file, 'these are not the pages of a database, but text long enough to be read');
    const run = rebound(['migrate'], { DATABASE_URL: `sqlite:${file}` });
    expect(run).toEqual({
      code: 1,
      err: `rebound: cannot use the database at sqlite:${file} (DATABASE_URL): file is not a database.\n`,
    });
    // Nothing is left beside the file that was named by mistake.
    expect(existsSync(`${file}-startup.lock`)).toBe(false);
  });
});

describe('commands that need an existing database', () => {
  const missing = (url: string, shown = url) =>
    `rebound: no Rebound database at ${shown} (DATABASE_URL): \`rebound migrate\` or \`rebound serve\` creates one.\n`;

  it.each([
    ['shops', 'create', '--handle', 'typo', '--name', 'Typo'],
    ['keys', 'list', 'typo'],
    ['import', work, '--shop', 'typo'],
    ['backup', join(work, 'typo.bak')],
  ])('%s refuses a mistyped SQLite path and creates nothing there', (...args) => {
    const folder = join(work, 'mistyped');
    const url = `sqlite:${join(folder, 'rebound.db')}`;
    expect(rebound(args, { DATABASE_URL: url })).toEqual({ code: 1, err: missing(url) });
    expect(existsSync(folder)).toBe(false);
  });

  it('refuses a PostgreSQL schema that Rebound has not set up', () => {
    const base = process.env.DATABASE_URL_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
    const url = `${base}${base.includes('?') ? '&' : '?'}schema=rebound_never_made_${process.pid}`;
    const run = rebound(['keys', 'list', 'typo'], { DATABASE_URL: url });
    // Without a server the failure is its being out of reach, told in one line too.
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^rebound: (no Rebound database at|cannot reach the database at) .*\(DATABASE_URL\)/);
  });

  it('refuses an unknown command before it opens any database', () => {
    const folder = join(work, 'never');
    const run = rebound(['frobnicate'], { DATABASE_URL: `sqlite:${join(folder, 'r.db')}` });
    expect(run.code).toBe(1);
    expect(run.err).toContain('unknown command "frobnicate"');
    expect(existsSync(folder)).toBe(false);
  });
});

describe('an import folder that is not what it seems', () => {
  it('refuses both forms of a file, a name Rebound does not import, and a folder named as a file', () => {
    const env = { DATABASE_URL: `sqlite:${join(work, 'import.db')}` };
    expect(rebound(['migrate'], env).code).toBe(0);
    expect(rebound(['shops', 'create', '--handle', 'imp', '--name', 'Imp'], env).code).toBe(0);
    const folder = (name: string, files: Record<string, string>) => {
      const dir = join(work, name);
      mkdirSync(dir);
      for (const [file, text] of Object.entries(files))
        if (text === '/') mkdirSync(join(dir, file));
        else writeFileSync(join(dir, file), text);
      return dir;
    };
    const row = JSON.stringify({ id: 1, email: null, tags: [] });
    const both = folder('both', { 'customers.json': `[${row}]`, 'customers.ndjson': row });
    const misspelt = folder('misspelt', { 'customers.json': `[${row}]`, 'order.json': '[]' });
    const dirNamed = folder('dir-named', { 'customers.json': '/' });
    const run = (dir: string) => rebound(['import', dir, '--shop', 'imp'], env);
    expect(run(both)).toEqual({
      code: 1,
      err: expect.stringMatching(/customers\.json and .*customers\.ndjson are both in/),
    });
    expect(run(misspelt)).toEqual({ code: 1, err: expect.stringMatching(/order\.json is not a file Rebound imports/) });
    expect(run(dirNamed)).toEqual({
      code: 1,
      err: expect.stringMatching(/^rebound: .*customers\.json is not a file\.\n$/),
    });
  });
});

describe('settingAtFault', () => {
  const settings = {
    databaseUrl: 'postgres://db.internal/rebound',
    redisUrl: 'redis://cache:6380',
    port: 8080,
    host: '::',
  };

  it("keeps a query's own error a defect, with its stack", () => {
    const syntax = Object.assign(new Error('syntax error at or near "selec"'), { severity: 'ERROR', code: '42601' });
    expect(settingAtFault(syntax, settings)).toBeNull();
    const constraint = Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect(settingAtFault(constraint, { ...settings, databaseUrl: 'sqlite:x.db' })).toBeNull();
  });

  it('names the service whose address failed, of the attempts Node joined into one error', () => {
    const refused = (port: number) => Object.assign(new Error('refused'), { code: 'ECONNREFUSED', port });
    const joined = Object.assign(new AggregateError([refused(6380), refused(6380)]), { code: 'ECONNREFUSED' });
    expect(settingAtFault(joined, settings)).toBe(
      'cannot reach Redis at redis://cache:6380 (REDIS_URL): ECONNREFUSED.',
    );
    expect(settingAtFault(refused(5432), settings)).toMatch(/^cannot reach the database at .* \(DATABASE_URL\)/);
    // Some other service's address: not a setting of ours.
    expect(settingAtFault(refused(443), settings)).toBeNull();
    const auth = Object.assign(new Error('password authentication failed for user "x"'), {
      severity: 'FATAL',
      code: '28P01',
    });
    expect(settingAtFault(auth, settings)).toContain('(DATABASE_URL): password authentication failed');
  });
});
