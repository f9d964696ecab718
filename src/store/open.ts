import { connect } from './connect.js';
import { createKyselyStore } from './kysely/index.js';
import type { Store } from './store.js';

/** Opens and migrates the store a DATABASE_URL names. */
export async function openStore(databaseUrl: string, options: { migrate?: boolean } = {}): Promise<Store> {
  const store = createKyselyStore(connect(databaseUrl));
  if (options.migrate !== false) await store.migrate();
  return store;
}
