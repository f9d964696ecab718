import { ApiError } from './api.js';

/** A form's fields by the path the API names them with (`public_url`, `arms[].weight`): their labels. */
export type FieldLabels = Record<string, string>;

/** `arms[1].weight` → `arms[].weight`: one label serves every row of a list. */
const rowless = (path: string) => path.replace(/\[\d+\]/g, '[]');

/**
 * Why a save was refused, in the form's words: the first problem's field by its label, not by the
 * key the API names it with ("Storefront address: must be an http(s) URL", not "Invalid shop:
 * public_url must be an http(s) URL"). An answer naming no field the form shows keeps its message.
 */
export function refusal(error: unknown, labels: FieldLabels = {}): string {
  if (!(error instanceof ApiError)) return (error as Error).message;
  const first = error.problems[0];
  const path = first?.path ?? error.parameter ?? null;
  if (!first || path === null) return error.message;
  const label = labels[path] ?? labels[rowless(path)];
  if (label === undefined) return error.message;
  // A message the service wrote may begin with the key itself ("public_url must be …").
  const said = first.message.startsWith(`${path} `) ? first.message.slice(path.length + 1) : first.message;
  const row = /\[(\d+)\]/.exec(path);
  return `${label}${row ? ` ${Number(row[1]) + 1}` : ''}: ${inFormWords(said)}.`.replace(/\.\.$/, '.');
}

/** `null` is what a form's empty field sends: "a whole number or null" reads as "…, or empty for the default". */
function inFormWords(message: string): string {
  return message.replace(/ or null$/, ', or empty for the default');
}
