import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type Connection } from '../../src/store/connect.js';
import { createKyselyStore } from '../../src/store/kysely/index.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { newShop, product } from '../helpers/fixtures.js';

/** This process's threads (Linux): the checkpointing thread is one while it runs. */
function threads(): Set<string> {
  return new Set(readdirSync('/proc/self/task'));
}

function threadsSince(before: Set<string>): string[] {
  return [...threads()].filter((id) => !before.has(id));
}

/** The thread started since `before`: there must be exactly one. */
function startedSince(before: Set<string>): string {
  const started = threadsSince(before);
  expect(started).toHaveLength(1);
  return started[0]!;
}

/** Whether the database file holds every page: the WAL was copied into it. */
function checkpointed(file: string): boolean {
  const reader = new SQLite(file, { readonly: true });
  const pages = Number(reader.pragma('page_count', { simple: true }));
  const pageSize = Number(reader.pragma('page_size', { simple: true }));
  reader.close();
  return statSync(file).size >= pages * pageSize;
}

/** Which of the database file and its WAL hold these bytes. */
function filesHolding(file: string, bytes: Buffer): string[] {
  return [file, `${file}-wal`].filter((path) => {
    try {
      return readFileSync(path).includes(bytes);
    } catch {
      return false;
    }
  });
}

const autocheckpoint = (connection: Connection) =>
  Number(connection.sqlite!.pragma('wal_autocheckpoint', { simple: true }));

async function writeSetting(store: Store, value: string): Promise<void> {
  await store.putSetting('checkpoint-test', value);
}

/** SQLite only: PostgreSQL has no WAL file of ours to checkpoint. */
describe('SQLite checkpoints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rebound-checkpoints-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies the WAL into the database file on another thread, with no commit doing it', async () => {
    const file = join(dir, 'db.sqlite');
    const store = await openStore(`sqlite:${file}`);
    try {
      // The migrations write far fewer than the 1,000 pages that make a commit checkpoint by itself.
      const reader = new SQLite(file, { readonly: true });
      expect(Number(reader.pragma('page_count', { simple: true }))).toBeLessThan(1000);
      reader.close();
      await expect.poll(() => checkpointed(file)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("leaves none of an erased customer's bytes in the WAL once the thread has truncated it", async () => {
    const file = join(dir, 'erased.sqlite');
    const store = await openStore(`sqlite:${file}`);
    const email = Buffer.from('wal-erased@example.com');
    const held = () => filesHolding(file, email);
    try {
      const shop = await store.createShop(newShop('wal'), []);
      await store.upsertCustomers(shop.id, [{ id: 7, email: 'wal-erased@example.com', tags: [] }]);
      await expect.poll(() => held().length).toBeGreaterThan(0);
      await store.eraseCustomer(shop.id, 7);
      // The rows are overwritten in the database file (secure_delete); the WAL's older frames go too.
      await expect.poll(held).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('truncates the WAL after an erasure that came while the thread was ending, by the next thread', async () => {
    const file = join(dir, 'erased-ending.sqlite');
    const store = await openStore(`sqlite:${file}`);
    const email = Buffer.from('wal-ending@example.com');
    const held = () => filesHolding(file, email);
    try {
      const shop = await store.createShop(newShop('wal-ending'), []);
      await store.upsertCustomers(shop.id, [{ id: 7, email: 'wal-ending@example.com', tags: [] }]);
      await expect.poll(() => held().length).toBeGreaterThan(0);
      // A reader of an older snapshot keeps the ending thread's last checkpoints from finishing meanwhile.
      const reader = new SQLite(file, { readonly: true });
      reader.prepare('BEGIN').run();
      reader.prepare('SELECT count(*) FROM customers').get();
      const ending = store.settle();
      await store.eraseCustomer(shop.id, 7);
      reader.prepare('COMMIT').run();
      reader.close();
      await ending;
      await expect.poll(held).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('starts no thread for a connection that only reads, and one with its first change', async () => {
    const file = join(dir, 'reads.sqlite');
    const setup = await openStore(`sqlite:${file}`);
    await writeSetting(setup, 'stored');
    await setup.close();
    const before = threads();
    const connection = connect(`sqlite:${file}`);
    const store = createKyselyStore(connection);
    try {
      // A restarted node: migrations already applied (BEGIN IMMEDIATE, reads, COMMIT), then reads.
      await store.migrate();
      await store.listShops();
      await store.getSetting('checkpoint-test');
      // A write that changes no row (a purge that finds nothing) adds nothing to the WAL either.
      expect(await store.putSettingIfAbsent('checkpoint-test', 'other')).toBe('stored');
      expect(threadsSince(before)).toEqual([]);
      expect(autocheckpoint(connection)).toBe(1000);

      await writeSetting(store, 'changed');
      startedSince(before);
      expect(autocheckpoint(connection)).toBe(10_000);
    } finally {
      await store.close();
    }
  });

  it('ends the thread after a quiet period, with a last checkpoint; the next write starts another', async () => {
    const file = join(dir, 'quiet.sqlite');
    await (await openStore(`sqlite:${file}`)).close();
    const connection = connect(`sqlite:${file}`, { checkpoints: { quietMs: 100, intervalMs: 60_000 } });
    const store = createKyselyStore(connection);
    try {
      const before = threads();
      const marker = `written-${process.pid}-${Date.now()}`;
      await writeSetting(store, marker);
      const first = startedSince(before);
      await expect.poll(() => threads().has(first)).toBe(false);
      await expect.poll(() => autocheckpoint(connection)).toBe(1000);
      // Its interval is a minute: only the checkpoint it made as it ended can have copied the write.
      expect(readFileSync(file).includes(marker)).toBe(true);

      const ended = threads();
      await writeSetting(store, 'again');
      const second = startedSince(ended);
      expect(autocheckpoint(connection)).toBe(10_000);
      await expect.poll(() => threads().has(second)).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('ends the thread when start-up settles, and starts another after it for a write made meanwhile', async () => {
    const file = join(dir, 'settle.sqlite');
    const connection = connect(`sqlite:${file}`, { checkpoints: { intervalMs: 60_000 } });
    const store = createKyselyStore(connection);
    let last = '';
    try {
      const before = threads();
      await store.migrate();
      const first = startedSince(before);
      await store.settle();
      await expect.poll(() => threads().has(first)).toBe(false);
      expect(autocheckpoint(connection)).toBe(1000);
      expect(checkpointed(file)).toBe(true);

      const settled = threads();
      await writeSetting(store, 'a');
      startedSince(settled);
      const running = threads();
      const ending = store.settle();
      // Written while the thread ends: its last checkpoint may miss it, so another thread starts.
      await writeSetting(store, 'b');
      await ending;
      expect(autocheckpoint(connection)).toBe(10_000);
      last = startedSince(running);
    } finally {
      await store.close();
    }
    // Closing the database ends it.
    await expect.poll(() => threads().has(last)).toBe(false);
  });

  it('lifts the bound for a large write until the thread has passed over the WAL after it', async () => {
    const file = join(dir, 'large.sqlite');
    await (await openStore(`sqlite:${file}`)).close();
    // Its interval is a minute: only the pass the large write asks for can copy it.
    const connection = connect(`sqlite:${file}`, { checkpoints: { intervalMs: 60_000 } });
    const store = createKyselyStore(connection);
    try {
      await writeSetting(store, 'the thread starts');
      expect(autocheckpoint(connection)).toBe(10_000);
      const marker = `large-${process.pid}-${Date.now()}`;
      let during = -1;
      await connection.checkpoints!.largeWrite(async () => {
        during = autocheckpoint(connection);
        await writeSetting(store, marker);
      });
      // No commit checkpoints while it runs, nor until the thread has answered its pass.
      expect(during).toBe(0);
      expect(autocheckpoint(connection)).toBe(0);
      await expect.poll(() => autocheckpoint(connection)).toBe(10_000);
      expect(readFileSync(file).includes(marker)).toBe(true);

      // A product import is such a write.
      const shop = await store.createShop(newShop('large'), []);
      await store.upsertProducts(shop.id, [product(1), product(2)]);
      expect(autocheckpoint(connection)).toBe(0);
      await expect.poll(() => autocheckpoint(connection)).toBe(10_000);
    } finally {
      await store.close();
    }
  });

  it('keeps a process alive while it waits for the thread to end (nothing else may be running then)', async () => {
    const file = join(dir, 'alive.sqlite');
    const script = [
      "import { openStore } from './src/store/open.js';",
      `const store = await openStore(${JSON.stringify(`sqlite:${file}`)});`,
      'await store.settle();',
      "process.stdout.write('settled');",
      'await store.close();',
    ].join('\n');
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '..', '..'),
    });
    expect(stdout).toBe('settled');
  });
});
