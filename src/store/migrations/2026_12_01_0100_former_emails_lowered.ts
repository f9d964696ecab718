import { type Kysely, sql } from 'kysely';

/**
 * Former e-mails are stored lower-cased by SQL's lower(), which on SQLite folded ASCII letters only
 * until the store gave it every letter (store/connect.ts, `unicodeLower`): those stored before are
 * folded again, so `ZOË@…` kept as `zoË@…` matches the `zoë@…` an erasure looks for.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('customers')
    .set({ former_emails: sql`lower(former_emails)` })
    .where('former_emails', 'is not', null)
    .where('former_emails', '!=', sql`lower(former_emails)`)
    .execute();
}

export async function down(): Promise<void> {
  // Folded is what every later version reads: nothing to undo.
}
