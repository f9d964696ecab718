import { type Kysely, sql } from 'kysely';
import { migrationProvider } from '../migrations/index.js';
import type { Database } from '../schema.js';
import { SchemaMismatchError } from '../../domain/errors.js';

/** How Kysely's migrator refuses a database holding a migration it does not know. */
const UNKNOWN_MIGRATION = 'corrupted migrations: previously executed migration';

/**
 * The migrations a newer version applied that this one does not know, when Kysely refused to migrate
 * because of them; null when it refused for another reason. Migrations only add (docs/operations.md,
 * "Upgrades"): the previous version keeps running on the new schema, so it also starts on it, after a
 * crash or a restart during a rolling upgrade. A database whose history this version's does not begin
 * is refused.
 */
export async function newerMigrations(
  db: Kysely<Database>,
  schema: string | undefined,
  refusal: unknown,
): Promise<string[] | null> {
  if (!(refusal instanceof Error) || !refusal.message.startsWith(UNKNOWN_MIGRATION)) return null;
  const known = Object.keys(await migrationProvider.getMigrations()).sort();
  const table = sql.table(schema ? `${schema}.kysely_migration` : 'kysely_migration');
  const { rows } = await sql<{ name: string }>`select name from ${table} order by name`.execute(db);
  const executed = new Set(rows.map((row) => row.name));
  const unknown = rows.map((row) => row.name).filter((name) => !known.includes(name));
  const last = known.at(-1) ?? '';
  if (known.every((name) => executed.has(name)) && unknown.every((name) => name > last)) return unknown;
  throw new SchemaMismatchError(
    `the database was migrated by another version of Rebound (its migration ${unknown[0]} is not one of ` +
      'this version\'s): run that version, or restore the backup taken before it (docs/operations.md, "Upgrades").',
  );
}
