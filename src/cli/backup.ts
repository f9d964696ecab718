import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { childEnvironment } from '../config/config.js';
import { holdsRebound } from '../store/existing.js';
import { CommandError } from './errors.js';

const run = promisify(execFile);

/**
 * `rebound backup <file>`: a consistent copy of the database while the servers run.
 *   SQLite: SQLite's online backup API (better-sqlite3's backup): a snapshot of one moment, pages
 *   copied while writers continue.
 *   PostgreSQL: `pg_dump --format=custom`, which reads everything in one repeatable-read snapshot;
 *   with `?schema=name` only that schema. pg_dump must be installed (the postgresql-client package),
 *   of the server's major version or newer.
 */
export async function backupDatabase(databaseUrl: string, file: string): Promise<void> {
  if (existsSync(file)) throw new CommandError(`${file} already exists; backup does not overwrite a file.`);
  const folder = dirname(resolve(file));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new CommandError(`the folder ${folder} does not exist; backup does not create one.`);
  if (databaseUrl.startsWith('sqlite:')) {
    const database = new SQLite(sqliteFile(databaseUrl), { readonly: true, fileMustExist: true });
    try {
      await database.backup(file);
    } finally {
      database.close();
    }
    // The copy keeps the database's WAL mode, in which even a reader makes -wal and -shm files beside
    // it: a backup is one file, whoever opens it.
    const copy = new SQLite(file, { fileMustExist: true });
    copy.pragma('journal_mode = DELETE');
    copy.close();
    return;
  }
  const { url, schema, env } = postgresTarget(databaseUrl);
  await tool(
    'pg_dump',
    [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--file=${file}`,
      ...(schema ? [`--schema=${schema}`] : []),
      url,
    ],
    env,
  );
}

/**
 * `rebound restore <file>`: the backup into an empty database (stop the servers first; migrate
 * afterwards if the backup is older than the code). A database that already holds Rebound's
 * tables is refused, so a restore never mixes two databases.
 */
export async function restoreDatabase(databaseUrl: string, file: string): Promise<void> {
  if (!existsSync(file)) throw new CommandError(`${file} does not exist.`);
  if (databaseUrl.startsWith('sqlite:')) {
    const target = sqliteFile(databaseUrl);
    if (existsSync(target) && hasTables(target))
      throw new CommandError(`${target} is not empty; restore into a new database file.`);
    const backup = openSqliteBackup(file);
    try {
      await backup.backup(target);
    } finally {
      backup.close();
    }
    return;
  }
  // pg_restore creates the schema the dump holds (a `?schema=` backup restores into that schema): it
  // must be the one DATABASE_URL names, and hold no Rebound yet. One transaction: a failed restore
  // leaves nothing behind.
  const { url, schema, env } = postgresTarget(databaseUrl);
  const held = await dumpedSchema(file);
  if (held !== (schema ?? 'public'))
    throw new CommandError(
      `${file} holds Rebound's tables in the schema ${held}; DATABASE_URL names ${schema ?? 'public'}: ` +
        `restore with ?schema=${held} (pg_restore cannot move them to another schema).`,
    );
  if (await holdsRebound(databaseUrl))
    throw new CommandError(`the schema ${held} already holds Rebound's tables; restore into an empty one.`);
  await tool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${url}`, file],
    env,
  );
}

/** The backup file opened read-only, or a one-line refusal when it is not a Rebound SQLite database. */
function openSqliteBackup(file: string): SQLite.Database {
  const refusal = new CommandError(`${file} is not a backup of a Rebound SQLite database.`);
  let backup: SQLite.Database;
  try {
    backup = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch {
    throw refusal;
  }
  try {
    const migrations = backup.prepare("select 1 from sqlite_master where type = 'table' and name = ?");
    if (migrations.get('kysely_migration') !== undefined) return backup;
  } catch {
    // SQLITE_NOTADB: the file is not a database at all.
  }
  backup.close();
  throw refusal;
}

/** The schema of Rebound's tables in a pg_dump archive (`pg_restore --list`: "id; oid oid TABLE schema name owner"). */
async function dumpedSchema(file: string): Promise<string> {
  const listing = await tool('pg_restore', ['--list', file]);
  const table = /^\d+; \d+ \d+ TABLE (\S+) kysely_migration /m.exec(listing);
  if (!table) throw new CommandError(`${file} is not a backup of a Rebound PostgreSQL database.`);
  return table[1]!;
}

function hasTables(file: string): boolean {
  const database = new SQLite(file, { readonly: true });
  try {
    return (
      (database.prepare("select count(*) as n from sqlite_master where type = 'table'").get() as { n: number }).n > 0
    );
  } finally {
    database.close();
  }
}

function sqliteFile(databaseUrl: string): string {
  const file = databaseUrl.slice('sqlite:'.length);
  if (file === ':memory:') throw new CommandError('an in-memory database cannot be backed up or restored.');
  return file;
}

/**
 * What pg_dump and pg_restore are given: the URL without `?schema=` (theirs is `--schema`) and without
 * its password, which goes in PGPASSWORD instead: a command line is readable by every user of the
 * machine (`ps`), a process's environment only by its owner.
 */
export function postgresTarget(databaseUrl: string): { url: string; schema: string | null; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), schema, env: childEnvironment(password ? { PGPASSWORD: password } : {}) };
}

async function tool(name: string, args: string[], env: NodeJS.ProcessEnv = childEnvironment()): Promise<string> {
  try {
    return (await run(name, args, { maxBuffer: 16 * 1024 * 1024, env })).stdout;
  } catch (error) {
    const failure = error as { code?: string; stderr?: string };
    if (failure.code === 'ENOENT')
      throw new CommandError(`${name} is not installed (Debian: apt-get install postgresql-client).`);
    throw new CommandError(`${name} failed: ${(failure.stderr ?? String(error)).trim().split('\n')[0]}`);
  }
}
