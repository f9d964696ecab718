import { Migrator } from 'kysely';
import { connect } from '../../src/store/connect.js';
import { migrationProvider } from '../../src/store/migrations/index.js';

/**
 * The database at `url` as a release before had it: migrated up to `name` and no further, its
 * connection open for the test to write the rows of that release (and to destroy).
 */
export async function migratedTo(url: string, name: string): Promise<ReturnType<typeof connect>> {
  const before = connect(url);
  const migrator = new Migrator({
    db: before.db,
    provider: migrationProvider,
    ...(before.schema ? { migrationTableSchema: before.schema } : {}),
  });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error;
  return before;
}
