import type { Kysely } from 'kysely';
import { rebuildServing } from '../kysely/product-serving.js';

/**
 * Serving rows of version 2 keep each product's answer bytes deflated, the form a resident
 * product holds them in (a sixth of the memory): a load copies them as they are. Rows of
 * version 1 are written again here; until then a load reads those products from their documents.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await rebuildServing(db);
}
