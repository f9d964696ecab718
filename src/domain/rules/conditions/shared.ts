import { compilePattern, MAX_PATTERN_SIZE, type Pattern, type PatternWork } from '../pattern.js';
import { expandedAtoms, MAX_PATTERN_TEXT } from '../pattern-size.js';
import type { Condition, RuleRequest, RuleWorld } from '../types.js';

export interface Problem {
  path: string;
  message: string;
}

/** What one condition saw and decided; the trace shows it to the merchant. */
export interface ConditionOutcome {
  result: boolean;
  observed: unknown;
  /** Input-product tags a product_tag condition matched (feeds matching_input_tags outputs). */
  matchedTags?: string[];
}

/** `work`: what the evaluation may still spend on patterns (only matches_regex conditions use it). */
export type ConditionEvaluator = ((request: RuleRequest, world: RuleWorld, work: PatternWork) => ConditionOutcome) & {
  /** A matches_regex condition's compiled size: a ruleset's patterns are bounded together (compile.ts). */
  patternSize?: number;
};

/** The evaluator of a matches_regex condition, carrying its pattern's size. */
export function matching(pattern: Pattern, evaluate: ConditionEvaluator): ConditionEvaluator {
  return Object.assign(evaluate, { patternSize: pattern.size });
}

/** The kinds of value widget the console renders; validation parses each kind. */
export type ValueKind =
  | 'none'
  | 'products'
  | 'variant_id_list'
  | 'collection_id_list'
  | 'text_list'
  | 'text_list_or_regex'
  | 'number'
  | 'number_range'
  | 'date'
  | 'date_range'
  | 'weekday_list'
  | 'time_range'
  | 'text'
  | 'text_or_regex'
  | 'country_list';

export interface OperatorSpec {
  code: string;
  label: string;
  value: ValueKind;
}

/** One condition type, declared once: the console's forms, validation and evaluation all read it. */
export interface ConditionSpec {
  type: string;
  label: string;
  /** Which request input (or stored data) the condition reads. */
  input: string;
  operators: readonly OperatorSpec[];
  /** How a number value reads: money (decimal amount in the shop currency) or a whole count. */
  unit?: 'money' | 'count';
  /** What the ids of its value name, checked against the catalog when the ruleset is saved. */
  refersTo?: 'variant' | 'collection';
  compile(condition: Condition, path: string, problems: Problem[]): ConditionEvaluator | null;
}

export const ABSENT: ConditionOutcome = { result: false, observed: null };

/** Comma list, trimmed, empties dropped. */
export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export function idsOf(value: string | undefined, path: string, problems: Problem[]): number[] | null {
  const parts = splitList(value);
  if (parts.length === 0) {
    problems.push({ path, message: 'needs a comma-separated list of ids' });
    return null;
  }
  const bad = parts.find((p) => !/^\d{1,16}$/.test(p) || Number(p) < 1);
  if (bad !== undefined) {
    problems.push({ path, message: `"${bad}" is not a positive integer id` });
    return null;
  }
  return parts.map(Number);
}

/** Constructs other engines run and RE2 cannot in linear time: `\1`, `\k<name>`, `(?=`, `(?<!`, `a++`. */
const NOT_LINEAR = /\\[1-9]|\\k<|\(\?<?[=!]|[*+?}]\+/;

/**
 * `/pattern/flags` or a plain pattern, compiled for linear-time
 * matching; a pattern RE2 cannot take is a problem at its path.
 */
export function regexOf(value: string | undefined, path: string, problems: Problem[]): Pattern | null {
  const text = value ?? '';
  if (text === '' || text.length > MAX_PATTERN_TEXT) {
    problems.push({ path, message: `needs a regular expression of 1 to ${MAX_PATTERN_TEXT} characters` });
    return null;
  }
  // What its counted repeats expand to alone is too large: not compiled at all (compiling is the cost).
  const atoms = expandedAtoms(text);
  if (atoms > MAX_PATTERN_SIZE) {
    problems.push({ path, message: patternTooLarge(`at least ${atoms}`) });
    return null;
  }
  let pattern: Pattern;
  try {
    pattern = compilePattern(text);
  } catch (error) {
    // Why RE2 refuses what other engines take; an unbalanced bracket needs no lecture on linear time.
    const why = NOT_LINEAR.test(text)
      ? '; patterns run in linear time, so backreferences, lookaround and possessive quantifiers are not supported'
      : '';
    problems.push({ path, message: `is not a valid regular expression here (${(error as Error).message})${why}` });
    return null;
  }
  if (pattern.size > MAX_PATTERN_SIZE) {
    problems.push({ path, message: patternTooLarge(String(pattern.size)) });
    return null;
  }
  return pattern;
}

/** Why a pattern is refused for its size, `instructions` what it compiles to (or at least). */
export const patternTooLarge = (instructions: string) =>
  `compiles to ${instructions} instructions, more than ${MAX_PATTERN_SIZE}: a counted repeat such as ` +
  '{1000} is compiled as that many copies; use + or * or a smaller count';

/** Finds the operator spec or records the problem; `anything`-style types have none. */
export function operatorOf(
  spec: { type: string; operators: readonly OperatorSpec[] },
  condition: Condition,
  path: string,
  problems: Problem[],
): OperatorSpec | null {
  const op = spec.operators.find((o) => o.code === condition.operator);
  if (!op) {
    const codes = spec.operators.map((o) => o.code).join(', ');
    problems.push({
      path: `${path}.operator`,
      message:
        condition.operator === undefined
          ? `is required for ${spec.type} (one of ${codes})`
          : `"${condition.operator}" is not allowed for ${spec.type} (one of ${codes})`,
    });
    return null;
  }
  return op;
}

/** The set operators shared by list conditions, over an observed set of lower-cased strings or ids. */
export function setTest<T>(operator: string, wanted: readonly T[], has: (value: T) => boolean): boolean {
  switch (operator) {
    case 'contains_any':
      return wanted.some(has);
    case 'contains_all':
      return wanted.every(has);
    case 'does_not_contain_any':
      return !wanted.some(has);
    default:
      return false;
  }
}
