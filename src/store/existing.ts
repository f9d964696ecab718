import { existsSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { pgSession } from './connect.js';

/** The table Kysely's migrator keeps: a database holds Rebound once it has been migrated. */
const MIGRATIONS_TABLE = 'kysely_migration';

/**
 * Whether a DATABASE_URL names a database Rebound has set up (created by `migrate` or a server's
 * start), looked at without creating or changing anything: a command that only works on an existing
 * one must not make a new, empty database of a mistyped URL.
 */
export async function holdsRebound(databaseUrl: string): Promise<boolean> {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file === ':memory:') return true;
    if (!existsSync(file)) return false;
    const database = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      return (
        database.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(MIGRATIONS_TABLE) !==
        undefined
      );
    } finally {
      database.close();
    }
  }
  const { client, schema } = await pgSession(databaseUrl);
  try {
    const { rows } = await client.query<{ present: boolean }>(
      'select exists (select 1 from information_schema.tables where table_schema = $1 and table_name = $2) as present',
      [schema, MIGRATIONS_TABLE],
    );
    return rows[0]?.present === true;
  } finally {
    await client.end().catch(() => undefined);
  }
}
