import type { Kysely } from 'kysely';

/**
 * The e-mails a customer had before their current one, lower-cased, one a line: events sent before
 * they signed in name them by e-mail alone, and an erasure or a data request must find those too
 * after the e-mail changed (docs/operations.md, "Privacy"). They go with the customer's row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('customers').addColumn('former_emails', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('customers').dropColumn('former_emails').execute();
}
