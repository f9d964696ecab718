import { InvalidInputError } from '../domain/errors.js';

/**
 * Query parameters arrive as strings (the seed types them so); each is parsed here, once,
 * and every failure is a 400 naming the parameter (product.md §2).
 */
export type Query = Record<string, unknown>;

export const MAX_ID_LIST = 250;

/** A parameter given at most once, as a string; a repeated one is a 400 naming it. */
export function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidInputError(name, `Parameter ${name} must be given once, as a string.`);
  return value;
}

/** `yes` / `no`, case-insensitive; anything else is a 400. */
export function yesNo(query: Query, name: string, fallback: boolean): boolean {
  const raw = single(query, name);
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (value === 'yes') return true;
  if (value === 'no') return false;
  throw new InvalidInputError(name, `Parameter ${name} must be yes or no, got "${clip(raw)}".`);
}

export function limitParam(query: Query, fallback: number, max: number): number {
  const raw = single(query, 'limit');
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim();
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new InvalidInputError('limit', `Parameter limit must be a whole number from 1 to ${max}, got "${clip(raw)}".`);
  }
  return Number(value);
}

/** A whole number from `min` to `max`; absent or empty takes the fallback; anything else is a 400 naming it. */
export function wholeNumberParam(query: Query, name: string, range: { min: number; max: number; fallback: number }): number {
  const raw = single(query, name);
  if (raw === undefined || raw.trim() === '') return range.fallback;
  const value = raw.trim();
  if (!/^\d{1,9}$/.test(value) || Number(value) < range.min || Number(value) > range.max) {
    throw new InvalidInputError(name, `Parameter ${name} must be a whole number from ${range.min} to ${range.max}, got "${clip(raw)}".`);
  }
  return Number(value);
}

export function formatParam(query: Query): boolean {
  const raw = single(query, 'format');
  if (raw === undefined || raw === '') return false;
  if (raw.trim().toLowerCase() === 'pretty') return true;
  throw new InvalidInputError('format', `Parameter format must be pretty, got "${clip(raw)}".`);
}

export function countryCodeParam(query: Query): string | null {
  const raw = single(query, 'country_code');
  if (raw === undefined || raw === '') return null;
  const value = raw.trim();
  if (!/^[A-Za-z]{2}$/.test(value)) {
    throw new InvalidInputError('country_code', `Parameter country_code must be a two-letter ISO 3166-1 country code, got "${clip(raw)}".`);
  }
  return value.toUpperCase();
}

/** Comma-separated positive integers, spaces allowed, at most 250. Empty means absent. */
export function idList(query: Query, name: string): number[] | null {
  const raw = single(query, name);
  if (raw === undefined || raw.trim() === '') return null;
  const parts = raw.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length > MAX_ID_LIST) {
    throw new InvalidInputError(name, `Parameter ${name} takes at most ${MAX_ID_LIST} ids, got ${parts.length}.`);
  }
  return parts.map((part) => {
    if (!/^\d{1,16}$/.test(part) || Number(part) < 1 || !Number.isSafeInteger(Number(part))) {
      throw new InvalidInputError(name, `Parameter ${name} must be a comma-separated list of positive integer ids; "${clip(part)}" is not one.`);
    }
    return Number(part);
  });
}

/** Comma-separated strings (handles, tags), at most 250, trimmed. */
export function stringList(query: Query, name: string): string[] | null {
  const raw = single(query, name);
  if (raw === undefined || raw.trim() === '') return null;
  const parts = raw.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length > MAX_ID_LIST) {
    throw new InvalidInputError(name, `Parameter ${name} takes at most ${MAX_ID_LIST} values, got ${parts.length}.`);
  }
  return parts;
}

/** Keeps echoed input short in error messages. */
function clip(text: string): string {
  const printable = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return printable.length > 40 ? `${printable.slice(0, 40)}…` : printable;
}
