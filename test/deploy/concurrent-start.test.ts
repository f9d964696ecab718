import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../bench/lib/processes.js';
import { backends } from '../helpers/backends.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { connect } from '../../src/store/connect.js';
import { withStartupLock } from '../../src/store/startup-lock.js';

const TOKEN = 'concurrent-start-operator-token-0123456789';
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];

/** Runs one CLI command to its end. */
function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI, ...args], {
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

/** What the database says about who migrated and seeded it. */
async function inspect(url: string): Promise<{ migrations: string[]; shops: string[] }> {
  const { db } = connect(url);
  try {
    const migrations = await db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    const shops = await db.selectFrom('shops').select('handle').execute();
    return {
      migrations: migrations.map((m) => (m as { name: string }).name).sort(),
      shops: shops.map((s) => s.handle),
    };
  } finally {
    await db.destroy();
  }
}

/** The migrations recorded so far; none when the migration table does not exist yet. */
async function migrated(url: string): Promise<string[]> {
  return inspect(url).then(
    (state) => state.migrations,
    () => [],
  );
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A server process started without waiting for it: its output so far, and a wait for its readiness. */
function spawnServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [...CLI, 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return {
    output: () => output,
    exited: () => child.exitCode !== null,
    async ready() {
      await until(() => /Listening on/.test(output) || child.exitCode !== null);
      const url = /Listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) throw new Error(`the server did not start:\n${output}`);
      await until(() => output.includes('"msg":"ready"') || child.exitCode !== null);
      return { url, output: () => output, stop };
    },
  };
}

const expectedMigrations = async () => Object.keys(await migrationProvider.getMigrations()).sort();

describe.each(backends())('processes starting at once on one database ($name)', (backend) => {
  const running: { stop: () => Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(running.map((r) => r.stop()));
    await backend.cleanup();
  });

  it('`rebound migrate` twice at once: both succeed, each migration is applied once', async () => {
    const url = await backend.url();
    const env = { DATABASE_URL: url, LOG_LEVEL: 'warn', REBOUND_ADMIN_TOKEN: TOKEN };
    const results = await Promise.all([runCli(['migrate'], env), runCli(['migrate'], env)]);
    for (const result of results) expect(result, result.output).toMatchObject({ code: 0 });
    expect((await inspect(url)).migrations).toEqual(await expectedMigrations());
  }, 240_000);

  it('two servers at once on an empty database: both wait for the ' +
    'start-up lock; then one migrates and seeds, both serve', async () => {
    const url = await backend.url();
    const env = {
      DATABASE_URL: url,
      LOG_LEVEL: 'info',
      REBOUND_ADMIN_TOKEN: TOKEN,
      REBOUND_DEMO: 'true',
      HOST: '127.0.0.1',
    };
    // Held here first, so both servers are certain to meet it: neither may touch the schema meanwhile.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let acquired: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => {
      acquired = resolve;
    });
    const lock = withStartupLock(url, () => {
      acquired();
      return held;
    });
    await holding;
    const children = [spawnServer(env), spawnServer(env)];
    await until(() => children.every((c) => c.output().includes('waiting for it') || c.exited()));
    for (const child of children) expect(child.output()).toContain('waiting for it');
    expect(await migrated(url)).toEqual([]);
    release();
    await lock;
    const nodes = await Promise.all(children.map((c) => c.ready()));
    running.push(...nodes);
    const seeders = nodes.filter((n) => n.output().includes('Demo shop "demo" created'));
    expect(seeders).toHaveLength(1);
    const state = await inspect(url);
    expect(state.migrations).toEqual(await expectedMigrations());
    expect(state.shops).toEqual(['demo']);
    // The node that waited serves the shop the other one seeded.
    const key = /public key: {2}(\S+)/.exec(seeders[0]!.output())![1]!;
    const answers = await Promise.all(
      nodes.map(async (node) => {
        const answer = await fetch(`${node.url}/api/v1/products/static?key=${key}&ids=7000000001`);
        return { status: answer.status, body: await answer.text() };
      }),
    );
    expect(answers[0]).toMatchObject({ status: 200, body: expect.stringContaining('7000000001') });
    expect(answers[1]).toEqual(answers[0]);
  }, 240_000);
});
