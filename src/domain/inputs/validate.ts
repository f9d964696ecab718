import type { TSchema, Static } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import { InvalidDocumentError } from '../errors.js';
import './formats.js';
import { plainMessage } from './messages.js';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerFor<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check as TypeCheck<T>;
}

/** Problems looked at in one variant of a union: enough to rank them, bounded for a hostile document. */
const VARIANT_PROBLEMS = 20;

/** Problems that say the value is not of a variant's kind at all (500 for "an integer or null": not null). */
const KIND_PROBLEMS = new Set<ValueErrorType>([
  ValueErrorType.Array,
  ValueErrorType.Boolean,
  ValueErrorType.Integer,
  ValueErrorType.Literal,
  ValueErrorType.Null,
  ValueErrorType.Number,
  ValueErrorType.Object,
  ValueErrorType.String,
]);

/**
 * The error to report for `error`: where a value matches no variant of a union ("Expected union
 * value"), the error of the variant it comes nearest to, so `{"list": "top_sellers", "limit": 500}`
 * is told about its `limit`, not that it is no source, and 500 for "1 to 100, or null" about the
 * maximum. A variant whose kind the value is not ranks behind one whose kind it is; then the one
 * with fewest problems. Two variants as near keep the union's error, which then lists what each
 * variant expects when the value is of none of their kinds (`Expected 'grid' or 'carousel'`).
 */
function nearest(error: ValueError): ValueError {
  if (error.errors.length === 0) return error;
  let best: { problems: ValueError[]; rank: number } | null = null;
  let tied = false;
  const expected: string[] = [];
  for (const variant of error.errors) {
    const problems: ValueError[] = [];
    for (const problem of variant) if (problems.push(problem) >= VARIANT_PROBLEMS) break;
    const first = problems[0];
    const otherKind = first !== undefined && first.path === error.path && KIND_PROBLEMS.has(first.type);
    if (otherKind) expected.push(first.message.replace(/^Expected /, ''));
    const rank = (otherKind ? VARIANT_PROBLEMS + 1 : 0) + problems.length;
    if (best === null || rank < best.rank) [best, tied] = [{ problems, rank }, false];
    else if (rank === best.rank) tied = true;
  }
  if (best !== null && !tied && best.problems.length > 0) return nearest(best.problems[0]!);
  if (expected.length === error.errors.length) return { ...error, message: `Expected ${expected.join(' or ')}` };
  return error;
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

/** A flat object as text whatever the order of its keys. */
const flatText = (item: Record<string, unknown>) => JSON.stringify(item, Object.keys(item).sort());

/**
 * A list within each row names each of its items once by `key`: a variant at two fixed prices in
 * a market, or two lines of one order under one id (a refund of that id would count against both),
 * is refused as a repeated row is, naming the second. With `alikeIsOne`, the same item twice alike
 * is one item. Items without the key are not compared.
 */
export function rejectRepeatedWithin<R extends object>(
  rows: readonly R[],
  list: keyof R & string,
  key: string,
  what: string,
  { alikeIsOne = false } = {},
): void {
  rows.forEach((row, index) => {
    const items = row[list];
    if (!Array.isArray(items)) return;
    const first = new Map<unknown, number>();
    items.forEach((item: Record<string, unknown>, at) => {
      if (item[key] === undefined || item[key] === null) return;
      const earlier = first.get(item[key]);
      if (earlier === undefined) {
        first.set(item[key], at);
        return;
      }
      if (alikeIsOne && flatText(item) === flatText(items[earlier])) return;
      const path = `${list}[${at}].${key}`;
      const differently = alikeIsOne ? ', differently' : '';
      const message = `${String(item[key])} is also the ${key} of ${list}[${earlier}]${differently}`;
      throw new InvalidDocumentError(`Row ${index} of the ${what}: ${path}: ${message}.`, [{ index, path, message }]);
    });
  });
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
  const first = check.Errors(row).First();
  const error = first && nearest(first);
  const field = readablePath(error?.path ?? '') || '(row)';
  const message = error ? plainMessage(error) : 'invalid';
  throw new InvalidDocumentError(`Row ${index} of the ${what}: ${field}: ${message}.`, [
    { index, path: field, message },
  ]);
}

/** Checks one document (not a bulk body) against the schema. */
export function validateDocument<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  const check = checkerFor(schema);
  if (check.Check(value)) return value;
  const problems = collectErrors(schema, value);
  throw new InvalidDocumentError(`Invalid ${what}: ${problems[0]?.path}: ${problems[0]?.message}.`, problems);
}

/** Every schema problem of a document (at most 20), with readable paths; empty when valid. */
export function collectErrors(schema: TSchema, value: unknown): { path: string; message: string }[] {
  const check = checkerFor(schema);
  if (check.Check(value)) return [];
  const problems = [];
  for (const error of check.Errors(value)) {
    const shown = nearest(error);
    problems.push({ path: readablePath(shown.path) || '(document)', message: plainMessage(shown) });
    if (problems.length === 20) break;
  }
  return problems;
}
