import type { CompiledRule, CompiledRuleset } from './compile.js';
import type { CompiledOutput } from './outputs.js';
import { PATTERN_WORK_PER_EVALUATION, type PatternWork } from './pattern.js';
import type { Rule, RuleRequest, RuleWorld } from './types.js';

export interface ConditionTrace {
  type: string;
  operator: string | null;
  value: unknown;
  observed: unknown;
  /** How many values were observed, when `observed` shows only the first of them (TRACE_OBSERVED_MAX, _CHARS). */
  observed_count?: number;
  /** null: not evaluated (an earlier condition of the group already failed). */
  result: boolean | null;
}

/**
 * Observed values a trace shows per condition. A condition may observe every tag of 250 input products
 * (62,500 values): shown whole for each of a ruleset's conditions, one preview's trace ran to hundreds of MB.
 */
export const TRACE_OBSERVED_MAX = 100;

/**
 * Characters of observed text a trace shows per condition, the first value whole: 100 tags of 255
 * characters for each of 2,000 conditions made one preview's trace 52 MB.
 */
export const TRACE_OBSERVED_CHARS = 2_000;

function observedOf(observed: unknown): Pick<ConditionTrace, 'observed' | 'observed_count'> {
  if (!Array.isArray(observed)) return { observed };
  let shown = 0;
  let chars = 0;
  while (shown < observed.length && shown < TRACE_OBSERVED_MAX) {
    const value = observed[shown];
    chars += typeof value === 'string' ? value.length : 0;
    if (shown > 0 && chars > TRACE_OBSERVED_CHARS) break;
    shown++;
  }
  if (shown === observed.length) return { observed };
  return { observed: observed.slice(0, shown), observed_count: observed.length };
}

export interface RuleTrace {
  index: number;
  name: string | null;
  status: 'matched' | 'unmatched' | 'unevaluated' | 'disabled';
  exit_if_matched: boolean;
  groups: { result: boolean | null; conditions: ConditionTrace[] }[];
}

export interface MatchedOutput {
  ruleIndex: number;
  output: CompiledOutput;
  /** Tags of the input products that the rule's product_tag conditions matched. */
  matchedTags: readonly string[];
}

export interface Evaluation {
  matched: Rule[];
  unmatched: Rule[];
  unevaluated: Rule[];
  /** Outputs of the matched rules, in rule order then output order. */
  outputs: MatchedOutput[];
  trace: RuleTrace[] | null;
  /** Some values were not matched against a pattern: the evaluation's pattern work was spent. */
  patternWorkExhausted: boolean;
}

/**
 * Runs the rules top to bottom (docs/rules.md): a rule matches when any group has all its
 * conditions true; a matched rule with exit_if_matched stops evaluation; disabled rules are
 * skipped and listed nowhere. Pure: all run state is local and nothing given is mutated.
 */
export function evaluateRuleset(
  ruleset: CompiledRuleset,
  request: RuleRequest,
  world: RuleWorld,
  options: { trace?: boolean } = {},
): Evaluation {
  const tracing = options.trace === true;
  const result: Evaluation = {
    matched: [],
    unmatched: [],
    unevaluated: [],
    outputs: [],
    trace: tracing ? [] : null,
    patternWorkExhausted: false,
  };
  const work: PatternWork = { left: PATTERN_WORK_PER_EVALUATION, exhausted: false };
  let stopped = false;
  for (const compiled of ruleset.rules) {
    const rule = compiled.rule;
    if (rule.enabled === false) {
      result.trace?.push(traceOf(compiled, 'disabled', []));
      continue;
    }
    if (stopped) {
      result.unevaluated.push(rule);
      result.trace?.push(traceOf(compiled, 'unevaluated', []));
      continue;
    }
    const { matched, matchedTags, groups } = matchRule(compiled, request, world, work, tracing);
    if (matched) {
      result.matched.push(rule);
      for (const output of compiled.outputs) result.outputs.push({ ruleIndex: compiled.index, output, matchedTags });
      if (rule.exit_if_matched) stopped = true;
    } else {
      result.unmatched.push(rule);
    }
    result.trace?.push(traceOf(compiled, matched ? 'matched' : 'unmatched', groups));
  }
  result.patternWorkExhausted = work.exhausted;
  return result;
}

function matchRule(
  compiled: CompiledRule,
  request: RuleRequest,
  world: RuleWorld,
  work: PatternWork,
  tracing: boolean,
) {
  const groups: RuleTrace['groups'] = [];
  // Empty logic means "anything".
  if (compiled.groups.length === 0) return { matched: true, matchedTags: [] as string[], groups };
  let matched = false;
  const matchedTags: string[] = [];
  for (const group of compiled.groups) {
    if (matched && !tracing) break;
    const conditions: ConditionTrace[] = [];
    let groupResult = true;
    const groupTags: string[] = [];
    for (const { condition, evaluate } of group) {
      if (!groupResult) {
        if (tracing)
          conditions.push({
            type: condition.type,
            operator: condition.operator ?? null,
            value: conditionValue(condition),
            observed: null,
            result: null,
          });
        continue;
      }
      const outcome = evaluate(request, world, work);
      if (outcome.matchedTags) for (const tag of outcome.matchedTags) groupTags.push(tag);
      if (tracing)
        conditions.push({
          type: condition.type,
          operator: condition.operator ?? null,
          value: conditionValue(condition),
          ...observedOf(outcome.observed),
          result: outcome.result,
        });
      groupResult = outcome.result;
    }
    if (groupResult && !matched) {
      matched = true;
      for (const tag of groupTags) matchedTags.push(tag);
    }
    if (tracing) groups.push({ result: groupResult, conditions });
  }
  return { matched, matchedTags, groups };
}

function conditionValue(condition: { value?: string; products?: unknown }): unknown {
  return condition.products ?? condition.value ?? null;
}

function traceOf(compiled: CompiledRule, status: RuleTrace['status'], groups: RuleTrace['groups']): RuleTrace {
  return {
    index: compiled.index,
    name: compiled.rule.name ?? null,
    status,
    exit_if_matched: compiled.rule.exit_if_matched,
    groups,
  };
}
