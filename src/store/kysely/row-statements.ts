import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Rows per statement, largest first: a batch runs as a few statements of these sizes. */
const SIZES = [128, 64, 32, 16, 8, 4, 2, 1] as const;

/**
 * A multi-row statement (an insert, an upsert) whose text depends only on its number of rows. The
 * text is built by Kysely once per size and kept; later batches only bind their values. Building
 * and compiling the query for every batch of the event intake cost more than SQLite's own work,
 * and a new text per row count also missed the prepared-statement cache. Sizes are powers of two,
 * so a handful of texts (and prepared statements) serve every batch.
 */
export class RowStatements<R extends object> {
  private readonly texts = new Map<number, string>();

  constructor(
    private readonly db: Kysely<Database>,
    /** The rows' columns, in the order the statement binds them. */
    private readonly columns: readonly (keyof R & string)[],
    private readonly build: (db: Kysely<Database>, rows: readonly R[]) => Compilable,
  ) {}

  /** Runs the statement for every row, on `db` (a transaction) or the store's connection. */
  async run(rows: readonly R[], db: Kysely<Database> = this.db): Promise<void> {
    let start = 0;
    while (start < rows.length) {
      const size = SIZES.find((s) => s <= rows.length - start)!;
      const chunk = rows.slice(start, start + size);
      start += size;
      const values: unknown[] = [];
      for (const row of chunk) for (const column of this.columns) values.push(row[column]);
      await db.executeQuery(CompiledQuery.raw(this.textFor(chunk, values), values));
    }
  }

  private textFor(rows: readonly R[], values: readonly unknown[]): string {
    const known = this.texts.get(rows.length);
    if (known !== undefined) return known;
    const compiled = this.build(this.db, rows).compile();
    // The kept text is right only if Kysely binds the values row by row in this column order.
    if (compiled.parameters.length !== values.length || compiled.parameters.some((p, i) => p !== values[i])) {
      throw new Error(`the statement does not bind its rows' values in the order ${this.columns.join(', ')}`);
    }
    this.texts.set(rows.length, compiled.sql);
    return compiled.sql;
  }
}
