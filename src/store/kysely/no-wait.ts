import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * SQLite: a write that does not wait for another process's write lock (busy_timeout 0 for its
 * statements), for what is worth no wait: a copy the next load makes again (a load snapshot, a
 * shop's kept event totals). The store answers on the event loop every shop shares, and the
 * usual timeout would hold it for seconds. False when the lock was held, else the write's answer.
 */
export function writeWithoutWaiting(
  db: Kysely<Database>,
  sqlite: SQLite.Database,
  write: (connection: Kysely<Database>) => Promise<boolean>,
): Promise<boolean> {
  return db.connection().execute(async (connection) => {
    const waited = sqlite.pragma('busy_timeout', { simple: true }) as number;
    sqlite.pragma('busy_timeout = 0');
    try {
      return await write(connection);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
      throw error;
    } finally {
      sqlite.pragma(`busy_timeout = ${waited}`);
    }
  });
}
