import type { Kysely, Transaction } from 'kysely';
import { chunks } from '../codec.js';
import type { Database } from '../schema.js';

/**
 * Adds counts to per-day total rows: inserts a row the first time, adds to it afterwards. Each
 * key appears once per call (callers fold their batch first), as one statement cannot touch a row twice.
 */
export async function addToTotals(
  db: Kysely<Database> | Transaction<Database>,
  table: 'source_days' | 'experiment_days',
  keys: readonly string[],
  values: readonly string[],
  rows: readonly Record<string, number | string>[],
): Promise<void> {
  const loose = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  for (const batch of chunks(rows, keys.length + values.length)) {
    if (batch.length === 0) continue;
    await loose
      .insertInto(table)
      .values(batch as Record<string, unknown>[])
      .onConflict((oc) =>
        oc
          .columns(keys as never[])
          .doUpdateSet(
            (eb) =>
              Object.fromEntries(
                values.map((v) => [v, eb(`${table}.${v}` as never, '+', eb.ref(`excluded.${v}` as never))]),
              ) as never,
          ),
      )
      .execute();
  }
}
