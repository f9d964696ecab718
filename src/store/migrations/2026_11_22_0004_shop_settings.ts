import type { Kysely } from 'kysely';

/** Per-shop tuning (trending window and half-life) as a JSON document. Frozen. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('shops')
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}
