import { RE2JS } from 're2js';

/** A merchant's regular expression, matched in time linear in the input (RE2 semantics: no backtracking). */
export interface Pattern {
  test(text: string): boolean;
  /** Instructions of the compiled program: what a match costs per character, at worst. */
  readonly size: number;
}

/**
 * Inputs longer than this are matched on their first this-many
 * characters (a URL is capped at 2,048 before it gets here).
 */
export const MAX_MATCHED_TEXT = 4096;

/**
 * Instructions one pattern may compile to. Merchants' patterns compile to 5–100; a counted repeat
 * is compiled as that many copies, so `(\pL|\pN){1000}x` is 3,003, and a match that falls back
 * from the DFA to the NFA costs about 25 ns per instruction and character (docs/rules.md, "Patterns").
 */
export const MAX_PATTERN_SIZE = 500;

/**
 * What one evaluation of a ruleset may spend matching patterns, in instructions × characters, each
 * value counted with VALUE_OVERHEAD more: about 60 ms where every match falls back to the NFA
 * (25 ns each). A URL always fits (a ruleset's patterns are bounded together, compile.ts); what is
 * bounded here are attribute conditions over many input products with many tags each.
 */
export const PATTERN_WORK_PER_EVALUATION = 2_500_000;

/** Characters a value counts for beyond its own: each match has a fixed cost of its own. */
const VALUE_OVERHEAD = 32;

/** The pattern work one evaluation has left; values past it are not matched (evaluate.ts reports it). */
export interface PatternWork {
  left: number;
  exhausted: boolean;
}

/** Matches `text` when the work it may cost is left, counting it; null (not matched) when it is not. */
export function testWithin(pattern: Pattern, text: string, work: PatternWork): boolean | null {
  const cost = pattern.size * (Math.min(text.length, MAX_MATCHED_TEXT) + VALUE_OVERHEAD);
  if (cost > work.left) {
    work.exhausted = true;
    return null;
  }
  work.left -= cost;
  return pattern.test(text);
}

/**
 * The DFA cache one compiled pattern may keep. re2js allows 8 MB each, which one hostile
 * text can fill and the shop's read model then holds; merchants' patterns need 5–45 KB.
 * Past it the cache is reset, and then the NFA runs: slower, still linear, no more memory.
 */
const DFA_BUDGET_BYTES = 128 * 1024;

const FLAGS: Readonly<Record<string, number>> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

/**
 * Compiles `/pattern/flags` (flags i, m, s; g, y, d and u change nothing for a yes/no match) or a
 * plain pattern with RE2. Constructs RE2 cannot run in linear time (backreferences, lookaround)
 * are refused: the error says why, and the ruleset is not saved (docs/rules.md, "Patterns").
 * The caller checks `size` against MAX_PATTERN_SIZE, to say what is too large in its terms.
 */
export function compilePattern(text: string): Pattern {
  // `/pattern/flags` only when the flags are real ones: `/collections/sale` is a plain pattern.
  const literal = /^\/(.*)\/([dgimsuy]*)$/s.exec(text);
  const source = literal ? literal[1]! : text;
  let flags = 0;
  for (const flag of literal?.[2] ?? '') flags |= FLAGS[flag] ?? 0;
  const re = RE2JS.compile(source, flags);
  boundDfa(re);
  return {
    size: re.programSize(),
    test: (input) => re.test(input.length > MAX_MATCHED_TEXT ? input.slice(0, MAX_MATCHED_TEXT) : input),
  };
}

/** re2js's DFA class, taken once from a pattern of its own: the package does not export it. */
type Dfa = RE2JS['re2Input']['lazyDFA'];
const DfaClass = RE2JS.compile('a').re2Input.dfa.constructor as new (prog: unknown, maxMem: number) => Dfa;

/**
 * Gives the pattern's lazily built DFA a smaller budget. re2js takes a budget only for sets; the
 * single-pattern engine builds its DFA with the default, so the DFA is made here, before the engine
 * builds its own (pinned re2js version; test/domain/rules/pattern.test.ts checks the bound holds).
 */
function boundDfa(re: RE2JS): void {
  re.re2Input.lazyDFA = new DfaClass(re.re2Input.prog, DFA_BUDGET_BYTES);
}
