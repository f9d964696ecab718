import { InvalidDocumentError } from '../errors.js';
import { RulesetInput } from '../inputs/ruleset.js';
import { collectErrors } from '../inputs/validate.js';
import { CONDITIONS_BY_TYPE } from './catalog.js';
import { expandedAtoms, MAX_PATTERN_TEXT } from './pattern-size.js';
import { type ConditionEvaluator, patternTooLarge, type Problem, splitList } from './conditions/shared.js';
import { MAX_PATTERN_SIZE } from './pattern.js';
import { checkRefs, type CompiledOutput, OUTPUTS_BY_TYPE } from './outputs.js';
import type { Condition, Output, ProductRef, Rule, RulesetDocument } from './types.js';

export interface CompiledCondition {
  condition: Condition;
  evaluate: ConditionEvaluator;
}

export interface CompiledRule {
  index: number;
  rule: Rule;
  groups: CompiledCondition[][];
  outputs: CompiledOutput[];
}

export interface CompiledRuleset {
  document: RulesetDocument;
  rules: CompiledRule[];
}

/** Existence checks against the shop's catalog, made when a ruleset is saved. */
export interface ReferenceCheck {
  hasProduct(id: number): boolean;
  hasVariant(productId: number, variantId: number): boolean;
  hasCollection(id: number): boolean;
  /** Whether any product of the catalog has this variant (a `variant` condition names variants alone). */
  hasVariantId(variantId: number): boolean;
  /** What is wrong with an `endpoint` output's list path and own query, or null when the list can run it. */
  endpointProblem(path: string, query: Readonly<Record<string, string>>): string | null;
  /** Whether the shop has the read_markets scope, without which a request's country_code is a 403. */
  readsMarkets: boolean;
}

/**
 * Every `endpoint` output runs a whole list in-process: a
 * ruleset may hold at most this many (docs/rules.md, "Outputs").
 */
export const MAX_ENDPOINT_OUTPUTS = 20;

/**
 * Conditions a ruleset may hold in all (merchants' rulesets: a few dozen). Every request the ruleset
 * serves may evaluate each: 12,500 conditions in a body under 1 MB cost 87–160 ms a request, and a
 * preview's trace of them was 19.6 MB.
 */
export const MAX_RULESET_CONDITIONS = 2000;

/**
 * Instructions a ruleset's patterns may compile to together (merchants' rulesets: under 300), so a
 * 2,048-character URL always fits the pattern work of an evaluation (pattern.ts) whatever the
 * merchant writes (docs/rules.md, "Patterns").
 */
export const MAX_RULESET_PATTERN_SIZE = 1000;

/** Defaults filled, read-only fields dropped: the document as stored. */
export function normalizeRuleset(input: RulesetInput): RulesetDocument {
  return {
    name: input.name,
    enabled: input.enabled ?? true,
    filter_oos: input.filter_oos ?? true,
    filter_input_products: input.filter_input_products ?? true,
    rules: input.rules.map((r) => ({
      ...(r.name !== undefined ? { name: r.name } : {}),
      enabled: r.enabled ?? true,
      logic: (r.logic ?? []).map((g) => ({
        rules: g.rules.map((c): Condition => {
          const { products, ...rest } = c;
          return products ? { ...rest, products: products.map(ref) } : rest;
        }),
      })),
      output: r.output.map((o): Output => {
        const { products, ...rest } = o;
        return products ? { ...rest, products: products.map(ref) } : rest;
      }),
      exit_if_matched: r.exit_if_matched ?? false,
    })),
  };
}

function ref(r: { product_id: number; variant_ids?: number[] }): ProductRef {
  return { product_id: r.product_id, variant_ids: r.variant_ids ?? [] };
}

/**
 * Validates a ruleset document and compiles it into evaluators: values parsed once, regexes built,
 * references checked. Every problem is reported with its JSON path (422).
 */
export function compileRulesetInput(body: unknown, references?: ReferenceCheck): CompiledRuleset {
  const shapeProblems = collectErrors(RulesetInput, body);
  if (shapeProblems.length > 0) throw invalid(shapeProblems);
  const document = normalizeRuleset(body as RulesetInput);
  // Saved ones only: a ruleset stored before the bound still loads.
  const conditions = document.rules.reduce((n, rule) => n + rule.logic.reduce((m, g) => m + g.rules.length, 0), 0);
  if (conditions > MAX_RULESET_CONDITIONS)
    throw invalid([
      { path: 'rules', message: `holds ${conditions} conditions; at most ${MAX_RULESET_CONDITIONS} are allowed` },
    ]);
  return compileRuleset(document, references);
}

export function compileRuleset(document: RulesetDocument, references?: ReferenceCheck): CompiledRuleset {
  refuseLargePatterns(document);
  const problems: Problem[] = [];
  const rules = document.rules.map((rule, index): CompiledRule => {
    const path = `rules[${index}]`;
    const groups = rule.logic.map((group, g) =>
      group.rules.map((condition, c) =>
        compileCondition(condition, `${path}.logic[${g}].rules[${c}]`, problems, references),
      ),
    );
    const outputs = rule.output.map((output, o) => compileOutput(output, `${path}.output[${o}]`, problems, references));
    return {
      index,
      rule,
      groups: groups.map((g) => g.filter((c): c is CompiledCondition => c !== null)),
      outputs: outputs.filter((o): o is CompiledOutput => o !== null),
    };
  });
  const endpoints = rules.reduce((n, rule) => n + rule.outputs.filter((o) => o.type === 'endpoint').length, 0);
  if (endpoints > MAX_ENDPOINT_OUTPUTS)
    problems.push({
      path: 'rules',
      message: `holds ${endpoints} endpoint outputs; at most ${MAX_ENDPOINT_OUTPUTS} are allowed`,
    });
  const patternSize = rules.reduce(
    (n, rule) => n + rule.groups.flat().reduce((m, c) => m + (c.evaluate.patternSize ?? 0), 0),
    0,
  );
  if (patternSize > MAX_RULESET_PATTERN_SIZE)
    problems.push({
      path: 'rules',
      message:
        `holds patterns that compile to ${patternSize} instructions together; ` +
        `at most ${MAX_RULESET_PATTERN_SIZE} are allowed`,
    });
  if (problems.length > 0) throw invalid(problems);
  return { document, rules };
}

/**
 * Patterns whose counted repeats alone pass what one pattern, or a ruleset's patterns together, may
 * compile to are refused before any is compiled: a thousand patterns of 3,000 instructions each held
 * the thread every shop shares for 15 s while they compiled, to be refused after.
 */
function refuseLargePatterns(document: RulesetDocument): void {
  const problems: Problem[] = [];
  let atoms = 0;
  document.rules.forEach((rule, r) => {
    rule.logic.forEach((group, g) => {
      group.rules.forEach((condition, c) => {
        if (condition.operator !== 'matches_regex' || typeof condition.value !== 'string') return;
        const size = expandedAtoms(condition.value.slice(0, MAX_PATTERN_TEXT));
        if (size > MAX_PATTERN_SIZE)
          problems.push({
            path: `rules[${r}].logic[${g}].rules[${c}].value`,
            message: patternTooLarge(`at least ${size}`),
          });
        else atoms += size;
      });
    });
  });
  if (atoms > MAX_RULESET_PATTERN_SIZE)
    problems.push({
      path: 'rules',
      message:
        `holds patterns that compile to at least ${atoms} instructions together; ` +
        `at most ${MAX_RULESET_PATTERN_SIZE} are allowed`,
    });
  if (problems.length > 0) throw invalid(problems);
}

function invalid(problems: Problem[]): InvalidDocumentError {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : '';
  // A problem's message may end a sentence of its own: the summary adds one full stop, not a second.
  const message = first.message.replace(/\.$/, '');
  return new InvalidDocumentError(`Invalid ruleset: ${first.path}: ${message}${more}.`, problems);
}

function compileCondition(
  condition: Condition,
  path: string,
  problems: Problem[],
  references?: ReferenceCheck,
): CompiledCondition | null {
  const spec = CONDITIONS_BY_TYPE.get(condition.type);
  if (!spec) {
    problems.push({ path: `${path}.type`, message: `unknown condition type "${condition.type}"` });
    return null;
  }
  if (condition.products && references) checkRefs(condition.products, `${path}.products`, problems, references);
  // Saved, it would match only requests carrying country_code, each of them refused (a 403) without the scope.
  if (spec.input === 'country_code' && references && !references.readsMarkets)
    problems.push({
      path: `${path}.type`,
      message:
        "a country condition reads country_code, which needs the read_markets scope this shop's keys do not have",
    });
  const evaluate = spec.compile(condition, path, problems);
  // An id the catalog lacks is most likely a typo, and the condition would never match it.
  if (evaluate && spec.refersTo && references) checkConditionIds(spec.refersTo, condition, path, problems, references);
  return evaluate ? { condition, evaluate } : null;
}

function checkConditionIds(
  kind: 'variant' | 'collection',
  condition: Condition,
  path: string,
  problems: Problem[],
  references: ReferenceCheck,
): void {
  const known = kind === 'variant' ? references.hasVariantId : references.hasCollection;
  const unknown = splitList(condition.value)
    .map(Number)
    .filter((id) => !known(id));
  if (unknown.length > 0) problems.push({ path: `${path}.value`, message: `unknown ${kind} ${unknown.join(', ')}` });
}

function compileOutput(
  output: Output,
  path: string,
  problems: Problem[],
  references?: ReferenceCheck,
): CompiledOutput | null {
  const spec = OUTPUTS_BY_TYPE.get(output.type);
  if (!spec) {
    problems.push({ path: `${path}.type`, message: `unknown output type "${output.type}"` });
    return null;
  }
  const compiled = spec.compile(output, path, problems, references);
  // The declaration's type names its compiled form (outputs.ts derives CompiledOutput so).
  return compiled && ({ type: spec.type, ...compiled } as CompiledOutput);
}
