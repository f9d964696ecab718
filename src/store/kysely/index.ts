import { Migrator, type MigrationResultSet, sql } from 'kysely';
import type { Connection } from '../connect.js';
import { migrationProvider } from '../migrations/index.js';
import { UnavailableError } from '../../domain/errors.js';
import { isUnavailable } from '../codec.js';
import { newerMigrations } from './newer-schema.js';
import type { Store } from '../store.js';
import { catalogMethods } from './catalog.js';
import { collectionPageMethods } from './collection-pages.js';
import { servingMethods } from './product-serving.js';
import { snapshotMethods } from './snapshots.js';
import { commerceMethods } from './commerce.js';
import { billingMethods } from './billing.js';
import { billingProviderMethods } from './billing-providers.js';
import { idempotencyMethods } from './idempotency.js';
import { campaignMethods } from './campaigns.js';
import { eventMethods } from './events.js';
import { experimentMethods } from './experiments.js';
import { platformMethods } from './platform.js';
import { privacyMethods } from './privacy.js';
import { rulesetMethods } from './rulesets.js';
import { settingMethods } from './settings.js';
import { shopWebhookMethods } from './shop-webhooks.js';
import { shopMethods } from './shops.js';
import { trackingMethods } from './tracking.js';
import { widgetMethods } from './widgets.js';

/** The Kysely implementation of the Store, the same code on SQLite and PostgreSQL. */
export function createKyselyStore(connection: Connection): Store {
  return translateOutages(kyselyStore(connection));
}

/**
 * Every method's "the database cannot be reached" becomes an UnavailableError (503 with
 * Retry-After), so an outage is never answered as an internal error.
 */
function translateOutages(store: Store): Store {
  const wrapped = { ...store } as Record<string, unknown>;
  for (const [name, value] of Object.entries(store)) {
    if (typeof value !== 'function' || name === 'poolStats') continue;
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (value as (...a: unknown[]) => Promise<unknown>).apply(store, args);
      } catch (error) {
        if (isUnavailable(error))
          throw new UnavailableError('The database is unavailable just now; nothing was changed. Retry shortly.');
        throw error;
      }
    };
  }
  return wrapped as unknown as Store;
}

/**
 * BEGIN IMMEDIATE: another process's migration waits for this one (busy_timeout), and a failing
 * migration leaves nothing half-applied. Kysely's single SQLite connection carries the migrator's
 * statements inside this transaction; nothing else runs while the store is being opened.
 */
async function inWriteLock(
  db: Connection['db'],
  migrate: () => Promise<MigrationResultSet>,
): Promise<MigrationResultSet> {
  await sql`begin immediate`.execute(db);
  let result: MigrationResultSet;
  try {
    result = await migrate();
  } catch (error) {
    await sql`rollback`.execute(db);
    throw error;
  }
  await (result.error ? sql`rollback` : sql`commit`).execute(db);
  return result;
}

const MIGRATE_ATTEMPTS = 3;

/**
 * Before it takes its lock, Kysely's migrator lists the tables of every schema of the database
 * (`pg_get_serial_sequence` on each column). A schema another session drops at that moment fails
 * the listing although nothing of ours is wrong: with 3F000 (no such schema), or, when the listing
 * has read a table's columns just before, 42P01 (no such table) or 42703 (no such column: "column
 * name of relation rulesets does not exist"). So the migration is tried again. A problem of ours
 * fails every attempt and is reported.
 */
const DROPPED_MEANWHILE = new Set(['3F000', '42P01', '42703']);

function isSchemaDroppedMeanwhile(error: unknown): boolean {
  return DROPPED_MEANWHILE.has((error as { code?: unknown }).code as string);
}

/**
 * A driver's error keeps what tells an outage or a refusal (src/cli/errors.ts, isUnavailable) from a
 * defect when a migration wraps it: its code, PostgreSQL's severity, the socket's address.
 */
function keepingDriverFields(wrapper: Error, error: unknown): Error {
  const fields = ['code', 'severity', 'syscall', 'address', 'hostname', 'port', 'errors'] as const;
  for (const field of fields) {
    const value = (error as Record<string, unknown> | null)?.[field];
    if (value !== undefined) Object.assign(wrapper, { [field]: value });
  }
  return wrapper;
}

function kyselyStore({ db, dialect, schema, poolStats, sqlite, checkpoints }: Connection): Store {
  /**
   * Where the migrator keeps its tables. Unnamed, Kysely looks for them in every schema of the
   * database, finds another application's (or another Rebound's) and then reads its own, which does
   * not exist: so PostgreSQL's is always named, the schema our tables are created in.
   */
  async function tableSchema(): Promise<string | undefined> {
    if (schema || dialect === 'sqlite') return schema;
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    return rows[0]?.schema ?? undefined;
  }
  return {
    poolStats,
    async migrate() {
      const migrationSchema = await tableSchema();
      const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema: migrationSchema });
      // PostgreSQL: Kysely's adapter holds a session advisory lock and applies the pending migrations
      // in one transaction. SQLite: Kysely takes neither (no transactional DDL in its adapter), so the
      // write lock is taken here, before the migrator reads which migrations ran.
      for (let attempt = 1; ; attempt++) {
        const { error, results } =
          dialect === 'sqlite'
            ? await inWriteLock(db, () => migrator.migrateToLatest())
            : await migrator.migrateToLatest();
        if (!error) {
          const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
          return { applied, newer: [] };
        }
        if (attempt < MIGRATE_ATTEMPTS && isSchemaDroppedMeanwhile(error)) continue;
        const newer = await newerMigrations(db, migrationSchema, error);
        if (newer) return { applied: [], newer };
        const failed = results?.find((r) => r.status === 'Error')?.migrationName;
        const message = (error as Error).message ?? String(error);
        throw keepingDriverFields(
          new Error(failed ? `Migration ${failed} failed: ${message}` : message, { cause: error }),
          error,
        );
      }
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async settle() {
      await checkpoints?.settle();
    },
    async close() {
      await db.destroy();
    },
    ...settingMethods(db),
    ...shopMethods(db, sqlite),
    ...catalogMethods(db, sqlite, checkpoints),
    ...collectionPageMethods(db),
    ...servingMethods(db, sqlite),
    ...snapshotMethods(db, sqlite),
    ...commerceMethods(db, sqlite, checkpoints),
    ...rulesetMethods(db, sqlite),
    ...eventMethods(db, sqlite),
    ...billingMethods(db),
    ...campaignMethods(db),
    ...billingProviderMethods(db),
    ...idempotencyMethods(db),
    ...shopWebhookMethods(db),
    ...trackingMethods(db),
    ...experimentMethods(db, sqlite),
    ...widgetMethods(db),
    ...platformMethods(db),
    ...privacyMethods(db, checkpoints),
  };
}
