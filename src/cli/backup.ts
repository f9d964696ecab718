import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
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
  if (databaseUrl.startsWith('sqlite:')) {
    const database = new SQLite(sqliteFile(databaseUrl), { readonly: true, fileMustExist: true });
    try {
      await database.backup(file);
    } finally {
      database.close();
    }
    return;
  }
  const { url, schema } = postgresTarget(databaseUrl);
  await tool('pg_dump', [
    '--format=custom',
    '--no-owner',
    '--no-privileges',
    `--file=${file}`,
    ...(schema ? [`--schema=${schema}`] : []),
    url,
  ]);
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
    const backup = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      await backup.backup(target);
    } finally {
      backup.close();
    }
    return;
  }
  // pg_restore creates the schema the dump holds (a `?schema=` backup restores into that schema): it
  // must not exist yet. One transaction: a failed restore leaves nothing behind.
  const { url } = postgresTarget(databaseUrl);
  await tool('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    `--dbname=${url}`,
    file,
  ]);
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

function postgresTarget(databaseUrl: string): { url: string; schema: string | null } {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  return { url: url.toString(), schema };
}

async function tool(name: string, args: string[]): Promise<void> {
  try {
    await run(name, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const failure = error as { code?: string; stderr?: string };
    if (failure.code === 'ENOENT')
      throw new CommandError(`${name} is not installed (Debian: apt-get install postgresql-client).`);
    throw new CommandError(`${name} failed: ${(failure.stderr ?? String(error)).trim().split('\n')[0]}`);
  }
}
