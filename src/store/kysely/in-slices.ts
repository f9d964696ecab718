/**
 * Values one statement's `in` list takes at most. SQLite binds at most 32,766 parameters a statement
 * and PostgreSQL 65,535; a customer's sessions are named by whoever holds the shop's public key, so
 * the lists that hold them are sliced: 33,000 sessions had made a customer's erasure and export fail.
 */
export const IN_SLICE = 5_000;

/** Slices of `values` (one empty slice when there are none: the query's other conditions still run). */
export function inSlices<V>(values: readonly V[]): (readonly V[])[] {
  if (values.length === 0) return [[]];
  const slices: V[][] = [];
  for (let i = 0; i < values.length; i += IN_SLICE) slices.push(values.slice(i, i + IN_SLICE));
  return slices;
}

/** The rows of `query` over every slice, each once by `key` (a row the other conditions match comes back each time). */
export async function selectedInSlices<V, R>(
  values: readonly V[],
  query: (slice: readonly V[]) => Promise<R[]>,
  key: (row: R) => unknown,
): Promise<R[]> {
  const seen = new Set<unknown>();
  const rows: R[] = [];
  for (const slice of inSlices(values))
    for (const row of await query(slice)) {
      const k = key(row);
      if (seen.has(k)) continue;
      seen.add(k);
      rows.push(row);
    }
  return rows;
}

/** Rows deleted by `query` over every slice, in all. */
export async function deletedInSlices<V>(
  values: readonly V[],
  query: (slice: readonly V[]) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (const slice of inSlices(values)) total += await query(slice);
  return total;
}
