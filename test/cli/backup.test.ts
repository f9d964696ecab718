import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { backupDatabase, restoreDatabase } from '../../src/cli/backup.js';
import { CommandError } from '../../src/cli/errors.js';
import { backends, PG_URL } from '../helpers/backends.js';

const work = mkdtempSync(join(tmpdir(), 'rebound-backup-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(backends())('backup and restore refuse in one line ($name)', (backend) => {
  afterAll(() => backend.cleanup());

  it('a backup into a folder that does not exist, before reading the database', async () => {
    const url = await backend.url();
    await (await backend.open()).close();
    const backup = backupDatabase(url, join(work, 'no', 'such', 'folder', 'b.db'));
    await expect(backup).rejects.toBeInstanceOf(CommandError);
    await expect(backup).rejects.toThrow(/the folder .*folder does not exist/);
  });

  it('a file that is not a backup, naming the file rather than DATABASE_URL', async () => {
    const notes = join(work, `notes-${backend.name}.txt`);
    writeFileSync(notes, 'not a database\n'.repeat(100));
    const restore = restoreDatabase(await backend.url(), notes);
    await expect(restore).rejects.toBeInstanceOf(CommandError);
    await expect(restore).rejects.toThrow(
      backend.name === 'sqlite' ? `${notes} is not a backup of a Rebound SQLite database.` : /pg_restore failed/,
    );
  });
});

describe('restoring a SQLite file', () => {
  it('refuses a SQLite database Rebound never migrated', async () => {
    const other = join(work, 'other-app.db');
    const db = new SQLite(other);
    db.exec('create table notes (body text)');
    db.close();
    await expect(restoreDatabase(`sqlite:${join(work, 'target.db')}`, other)).rejects.toThrow(
      `${other} is not a backup of a Rebound SQLite database.`,
    );
  });
});

describe.skipIf(!backends().some((b) => b.name === 'postgres'))('restoring a PostgreSQL dump', () => {
  const postgres = backends().find((b) => b.name === 'postgres')!;
  afterAll(() => postgres.cleanup());
  const schemaOf = (url: string) => new URL(url).searchParams.get('schema')!;

  it("refuses a schema other than the dump's, and one that holds Rebound already", async () => {
    const source = await postgres.url();
    await (await postgres.open()).close();
    const file = join(work, 'pg.dump');
    await backupDatabase(source, file);
    // Restored under another ?schema=, the tables would land in the dump's schema and the server see none.
    const elsewhere = await postgres.url();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`drop schema ${schemaOf(elsewhere)}`);
    await client.end();
    await expect(restoreDatabase(elsewhere, file)).rejects.toThrow(
      `holds Rebound's tables in the schema ${schemaOf(source)}; DATABASE_URL names ${schemaOf(elsewhere)}`,
    );
    await expect(restoreDatabase(source, file)).rejects.toThrow(
      `the schema ${schemaOf(source)} already holds Rebound's tables; restore into an empty one.`,
    );
  });
});

describe('the PostgreSQL tools', () => {
  it('get the password in their environment, not on a command line every user of the machine can read', async () => {
    const { postgresTarget } = await import('../../src/cli/backup.js');
    const target = postgresTarget('postgres://rebound:p%40ss%2Fword@db.internal:5432/rebound?schema=shop1');
    expect(target.url).toBe('postgres://rebound@db.internal:5432/rebound');
    expect(target.schema).toBe('shop1');
    expect(target.env.PGPASSWORD).toBe('p@ss/word');
    expect(postgresTarget('postgres://rebound@db.internal/rebound').env.PGPASSWORD).toBe(process.env.PGPASSWORD);
  });
});

describe('a SQLite backup', () => {
  it('is one file, which a restore reads without leaving files beside it', async () => {
    const backend = backends().find((b) => b.name === 'sqlite')!;
    const source = await backend.url();
    await (await backend.open()).close();
    const folder = mkdtempSync(join(work, 'one-file-'));
    const file = join(folder, 'rebound.backup');
    await backupDatabase(source, file);
    await restoreDatabase(`sqlite:${join(work, 'restored-one-file.db')}`, file);
    expect(readdirSync(folder)).toEqual(['rebound.backup']);
    await backend.cleanup();
  });
});
