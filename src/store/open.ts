import { connect } from './connect.js';
import { createKyselyStore } from './kysely/index.js';
import type { Store } from './store.js';

/**
 * Opens and migrates the store a DATABASE_URL names. `onNewerSchema` hears of the migrations a newer
 * version applied, which this one runs without knowing; `onApplied` of those this opening applied.
 */
export async function openStore(
  databaseUrl: string,
  options: {
    migrate?: boolean;
    onNewerSchema?: (migrations: string[]) => void;
    onApplied?: (migrations: string[]) => void;
  } = {},
): Promise<Store> {
  const store = createKyselyStore(connect(databaseUrl));
  if (options.migrate === false) return store;
  const { applied, newer } = await store.migrate();
  if (newer.length > 0) options.onNewerSchema?.(newer);
  options.onApplied?.(applied);
  return store;
}
