import { Migrator, sql } from 'kysely';
import type { Connection } from '../connect.js';
import { migrationProvider } from '../migrations/index.js';
import type { Store } from '../store.js';
import { catalogMethods } from './catalog.js';
import { commerceMethods } from './commerce.js';
import { billingMethods } from './billing.js';
import { eventMethods } from './events.js';
import { rulesetMethods } from './rulesets.js';
import { shopWebhookMethods } from './shop-webhooks.js';
import { shopMethods } from './shops.js';

/** The Kysely implementation of the Store, the same code on SQLite and PostgreSQL. */
export function createKyselyStore({ db, dialect, schema, poolStats }: Connection): Store {
  return {
    dialect,
    poolStats,
    async migrate() {
      const { error, results } = await new Migrator({ db, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) }).migrateToLatest();
      const failed = results?.find((r) => r.status === 'Error');
      if (error) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`);
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
    ...shopMethods(db),
    ...catalogMethods(db),
    ...commerceMethods(db),
    ...rulesetMethods(db),
    ...eventMethods(db),
    ...billingMethods(db),
    ...shopWebhookMethods(db),
  };
}
