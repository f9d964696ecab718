/**
 * The one place where SQLite and PostgreSQL differ for our queries: booleans, JSON, timestamps,
 * unique-violation errors. Queries elsewhere are written once.
 */

export const bool = {
  toDb: (value: boolean): number => (value ? 1 : 0),
  fromDb: (value: unknown): boolean => value === true || value === 1 || value === '1',
};

export const json = {
  toDb: (value: unknown): string => JSON.stringify(value),
  fromDb: <T>(value: string): T => JSON.parse(value) as T,
};

export const time = {
  /** ISO 8601 → epoch ms. */
  toDb: (iso: string): number => Date.parse(iso),
  fromDb: (ms: number | string): string => new Date(Number(ms)).toISOString(),
};

/** Whether the error is a unique-constraint violation, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'SQLITE_BUSY',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
]);

/** Messages of drivers that set no code for a connection failure (the pieces hold no pattern characters). */
const CONNECTION_MESSAGES = new RegExp(
  [
    'Connection terminated',
    'connect ECONNREFUSED',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
  ].join('|'),
  'i',
);

/** Whether the error means the database cannot be reached right now (as opposed to a bad query). */
export function isUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return CONNECTION_MESSAGES.test(message);
}

/** Ids in one query's IN list: within SQLite's 32,766 parameters and PostgreSQL's 65,535. */
export const IDS_PER_QUERY = 30_000;

/**
 * A read by more ids than one statement takes (an import of 40,000 products), a part at a time:
 * the rows of every part in id order, the limit applied to the whole. Null when one query holds them.
 */
export async function readInIdParts<T extends { id: number }>(
  options: { ids?: number[]; limit?: number },
  read: (ids: number[]) => Promise<T[]>,
): Promise<T[] | null> {
  if (options.ids === undefined || options.ids.length <= IDS_PER_QUERY) return null;
  const rows: T[] = [];
  for (const part of chunks(options.ids, 1, IDS_PER_QUERY)) rows.push(...(await read(part)));
  rows.sort((a, b) => a.id - b.id);
  return options.limit === undefined ? rows : rows.slice(0, options.limit);
}

/** Splits rows for multi-row inserts so no statement exceeds the databases' bound-parameter limits. */
export function chunks<T>(rows: readonly T[], columns: number, maxParams = 30_000): T[][] {
  const size = Math.max(1, Math.floor(maxParams / Math.max(1, columns)));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
