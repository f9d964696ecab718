import type { TSchema, Static } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { InvalidDocumentError } from '../errors.js';
import './formats.js';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerFor<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check as TypeCheck<T>;
}

/** `/3/variants/0/price` → `variants[0].price` (the index is reported separately). */
export function readablePath(pointer: string): string {
  return pointer
    .split('/')
    .filter((p) => p !== '')
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('')
    .replace(/^\./, '');
}

/**
 * Checks every row of a bulk body against the schema. The first bad row rejects the whole
 * request with a 422 naming its index and field, so nothing half-valid is written.
 */
export function validateRows<T extends TSchema>(schema: T, rows: unknown, what: string, key?: string): Static<T>[] {
  const list = bulkRows(rows, what);
  for (let index = 0; index < list.length; index++) validateRow(schema, list[index], index, what);
  if (key !== undefined) rejectRepeated(list as Record<string, unknown>[], key, what);
  return list as Static<T>[];
}

/**
 * A bulk body names each row once by its key (`id`, or `variant_id` for inventory): a second row
 * of the same key is refused (422), as a bad row is. Which of the two was meant is not for the
 * import to guess, and written both, one would silently replace the other (or fail the statement).
 */
export function rejectRepeated<R extends object>(rows: readonly R[], key: keyof R & string, what: string): void {
  const first = new Map<unknown, number>();
  for (let index = 0; index < rows.length; index++) {
    const value: unknown = rows[index]![key];
    const earlier = first.get(value);
    if (earlier === undefined) {
      first.set(value, index);
      continue;
    }
    const message = `${String(value)} is also the ${key} of row ${earlier} of the same request`;
    throw new InvalidDocumentError(`Row ${index} of the ${what}: ${key}: ${message}.`, [{ index, path: key, message }]);
  }
}

/** A bulk body's rows, or the 422 for a body that is no list. */
export function bulkRows(rows: unknown, what: string): unknown[] {
  if (Array.isArray(rows)) return rows;
  throw new InvalidDocumentError(`The body must be a JSON array of ${what} (or NDJSON, one per line).`, [
    { path: '', message: 'expected an array' },
  ]);
}

/** One row of a bulk body checked against the schema: the 422 names its index and field. */
export function validateRow<T extends TSchema>(schema: T, row: unknown, index: number, what: string): Static<T> {
  const check = checkerFor(schema);
  if (check.Check(row)) return row;
  const error = check.Errors(row).First();
  const field = readablePath(error?.path ?? '') || '(row)';
  const message = error?.message ?? 'invalid';
  throw new InvalidDocumentError(`Row ${index} of the ${what}: ${field}: ${message}.`, [
    { index, path: field, message },
  ]);
}

/** Checks one document (not a bulk body) against the schema. */
export function validateDocument<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  const check = checkerFor(schema);
  if (check.Check(value)) return value;
  const problems = [...check.Errors(value)]
    .slice(0, 20)
    .map((e) => ({ path: readablePath(e.path) || '(document)', message: e.message }));
  throw new InvalidDocumentError(`Invalid ${what}: ${problems[0]?.path}: ${problems[0]?.message}.`, problems);
}

/** Every schema problem of a document (at most 20), with readable paths; empty when valid. */
export function collectErrors(schema: TSchema, value: unknown): { path: string; message: string }[] {
  const check = checkerFor(schema);
  if (check.Check(value)) return [];
  return [...check.Errors(value)]
    .slice(0, 20)
    .map((e) => ({ path: readablePath(e.path) || '(document)', message: e.message }));
}
