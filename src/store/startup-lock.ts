import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { pgSession } from './connect.js';

/**
 * Runs a server's start-up work (migrations, the first operator token, the demo seed) while no other
 * process starting on the same database does: several nodes started together migrate once and seed
 * the demo shop once. The lock belongs to the connection, so a process that dies releases it.
 *   PostgreSQL: a session advisory lock named after the schema (`?schema=`), so deployments that
 *   share a database in different schemas do not wait for each other.
 *   SQLite: an exclusive lock on `<file>-startup.lock` beside the database, taken through SQLite's own
 *   file locking. The database file's write lock cannot serve here: the start-up writes through it.
 */
export async function withStartupLock<T>(databaseUrl: string, work: () => Promise<T>, onWait?: () => void): Promise<T> {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file === ':memory:') return work();
    refuseNonDatabase(file);
    return withFileLock(`${file}-startup.lock`, work, onWait);
  }
  return withAdvisoryLock(databaseUrl, work, onWait);
}

async function withAdvisoryLock<T>(databaseUrl: string, work: () => Promise<T>, onWait?: () => void): Promise<T> {
  const { client, schema } = await pgSession(databaseUrl);
  const name = `rebound:startup:${schema}`;
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      'select pg_try_advisory_lock(hashtextextended($1, 0)) as locked',
      [name],
    );
    if (!rows[0]?.locked) {
      onWait?.();
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [name]);
    }
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [name]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A file that is there but is not a database fails as it would later, before a lock file is made beside it. */
function refuseNonDatabase(file: string): void {
  if (!existsSync(file)) return;
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    database.pragma('schema_version');
  } finally {
    database.close();
  }
}

async function withFileLock<T>(lockFile: string, work: () => Promise<T>, onWait?: () => void): Promise<T> {
  // The first start creates the database's folder; the lock comes before it.
  mkdirSync(dirname(lockFile), { recursive: true });
  const lock = new SQLite(lockFile);
  try {
    // The lock file stays in rollback-journal mode: an exclusive transaction keeps every other connection out.
    lock.pragma('busy_timeout = 0');
    let waited = false;
    for (;;) {
      try {
        lock.exec('BEGIN EXCLUSIVE');
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
        if (!waited) onWait?.();
        waited = true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    try {
      return await work();
    } finally {
      lock.exec('ROLLBACK');
    }
  } finally {
    lock.close();
  }
}
