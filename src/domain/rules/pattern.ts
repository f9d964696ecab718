import { RE2JS } from 're2js';

/** A merchant's regular expression, matched in time linear in the input (RE2 semantics: no backtracking). */
export interface Pattern {
  test(text: string): boolean;
}

/**
 * Inputs longer than this are matched on their first this-many
 * characters (a URL is capped at 2,048 before it gets here).
 */
export const MAX_MATCHED_TEXT = 4096;

const FLAGS: Readonly<Record<string, number>> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

/**
 * Compiles `/pattern/flags` (flags i, m, s; g, y, d and u change nothing for a yes/no match) or a
 * plain pattern with RE2. Constructs RE2 cannot run in linear time (backreferences, lookaround)
 * are refused: the error says why, and the ruleset is not saved (docs/rules.md, "Patterns").
 */
export function compilePattern(text: string): Pattern {
  // `/pattern/flags` only when the flags are real ones: `/collections/sale` is a plain pattern.
  const literal = /^\/(.*)\/([dgimsuy]*)$/s.exec(text);
  const source = literal ? literal[1]! : text;
  let flags = 0;
  for (const flag of literal?.[2] ?? '') flags |= FLAGS[flag] ?? 0;
  const re = RE2JS.compile(source, flags);
  return { test: (input) => re.test(input.length > MAX_MATCHED_TEXT ? input.slice(0, MAX_MATCHED_TEXT) : input) };
}
