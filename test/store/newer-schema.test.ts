import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { settingAtFault } from '../../src/cli/errors.js';
import { openStore } from '../../src/store/open.js';
import { SchemaMismatchError } from '../../src/domain/errors.js';
import { backends, PG_URL, pgAvailable } from '../helpers/backends.js';

/** Writes a migration name into the migrator's table, as another version of Rebound would have. */
async function recordMigration(url: string, name: string): Promise<void> {
  const store = await openStore(url);
  await store.close();
  if (url.startsWith('sqlite:')) {
    const SQLite = (await import('better-sqlite3')).default;
    const db = new SQLite(url.slice('sqlite:'.length));
    db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run(name, new Date().toISOString());
    db.close();
    return;
  }
  const schema = new URL(url).searchParams.get('schema');
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`insert into ${schema}.kysely_migration (name, timestamp) values ($1, $2)`, [
    name,
    new Date().toISOString(),
  ]);
  await client.end();
}

describe.each(backends())('a database another version migrated ($name)', (backend) => {
  afterAll(() => backend.cleanup());

  // A node of the previous version restarting during a rolling upgrade (docs/operations.md, "Upgrades").
  it('is run on by the previous version when it only holds newer migrations', async () => {
    const url = await backend.url();
    await recordMigration(url, '2099_01_01_0001_from_a_newer_version');
    let heard: string[] = [];
    const store = await openStore(url, { onNewerSchema: (names) => (heard = names) });
    try {
      expect(heard).toEqual(['2099_01_01_0001_from_a_newer_version']);
      expect(await store.getShopByHandle('demo')).toBeNull();
    } finally {
      await store.close();
    }
  });

  it("is refused in one line when its history is not this version's", async () => {
    const url = await backend.url();
    await recordMigration(url, '2026_11_22_0001_init_of_a_fork');
    const opening = openStore(url);
    await expect(opening).rejects.toBeInstanceOf(SchemaMismatchError);
    await expect(opening).rejects.toThrow('its migration 2026_11_22_0001_init_of_a_fork is not one of');
  });
});

/** A database of its own: what a URL without `?schema=` sees is the whole database. */
async function withDatabase(work: (admin: pg.Client, name: string) => Promise<void>): Promise<void> {
  const name = `rebound_db_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    await work(admin, name);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

function urlOf(database: string, user?: string): string {
  const url = new URL(PG_URL);
  url.pathname = `/${database}`;
  if (user) url.username = user;
  url.search = '';
  return url.toString();
}

describe.skipIf(!pgAvailable())('PostgreSQL without ?schema=', () => {
  it('migrates into its own schema although another schema holds a migration table', async () => {
    await withDatabase(async (_, database) => {
      const other = new pg.Client({ connectionString: urlOf(database) });
      await other.connect();
      await other.query('create schema another_app');
      await other.query('create table another_app.kysely_migration (name varchar(255) primary key, timestamp text)');
      await other.end();
      for (let start = 0; start < 2; start++) {
        const store = await openStore(urlOf(database));
        expect(await store.getShopByHandle('demo')).toBeNull();
        await store.close();
      }
    });
  });

  it("keeps PostgreSQL's refusal when a migration cannot run, so it is told in one line", async () => {
    await withDatabase(async (admin, database) => {
      const role = `rebound_ro_${randomBytes(4).toString('hex')}`;
      await admin.query(`create role ${role} login`);
      try {
        const url = urlOf(database, role);
        // PostgreSQL 15 and later: only the database's owner creates tables in public.
        await admin.query(`revoke create on schema public from public`).catch(() => undefined);
        const failure = await openStore(url).then(
          () => null,
          (error: unknown) => error,
        );
        expect(failure).toMatchObject({ code: '42501', severity: 'ERROR' });
        const line = settingAtFault(failure, { databaseUrl: url, redisUrl: null, port: 3000, host: '0.0.0.0' });
        expect(line).toMatch(/^cannot use the database at .* \(DATABASE_URL\): permission denied for schema public\.$/);
      } finally {
        await admin.query(`drop role if exists ${role}`).catch(() => undefined);
      }
    });
  });
});
