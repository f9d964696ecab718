import { InvalidDocumentError } from '../errors.js';
import { RulesetInput } from '../inputs/ruleset.js';
import { collectErrors } from '../inputs/validate.js';
import { CONDITIONS_BY_TYPE, OUTPUTS_BY_TYPE } from './catalog.js';
import { splitList, type ConditionEvaluator, type Problem } from './conditions/shared.js';
import type { Condition, Output, ProductRef, Rule, RulesetDocument } from './types.js';

export type CompiledOutput =
  | { type: 'product'; refs: ProductRef[] }
  | { type: 'collection'; collectionId: number }
  | { type: 'tag'; tags: string[] }
  | { type: 'matching_input_tags' }
  | { type: 'input_products' }
  | { type: 'none' }
  | { type: 'endpoint'; path: string; query: Record<string, string> };

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
  /** What is wrong with an `endpoint` output's list path and own query, or null when the list can run it. */
  endpointProblem(path: string, query: Readonly<Record<string, string>>): string | null;
}

/** Every `endpoint` output runs a whole list in-process: a ruleset may hold at most this many (docs/rules.md, "Outputs"). */
export const MAX_ENDPOINT_OUTPUTS = 20;

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
  return compileRuleset(normalizeRuleset(body as RulesetInput), references);
}

export function compileRuleset(document: RulesetDocument, references?: ReferenceCheck): CompiledRuleset {
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
  if (problems.length > 0) throw invalid(problems);
  return { document, rules };
}

function invalid(problems: Problem[]): InvalidDocumentError {
  const first = problems[0]!;
  return new InvalidDocumentError(
    `Invalid ruleset: ${first.path}: ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : ''}.`,
    problems,
  );
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
  const evaluate = spec.compile(condition, path, problems);
  return evaluate ? { condition, evaluate } : null;
}

function compileOutput(
  output: Output,
  path: string,
  problems: Problem[],
  references?: ReferenceCheck,
): CompiledOutput | null {
  if (!OUTPUTS_BY_TYPE.has(output.type)) {
    problems.push({ path: `${path}.type`, message: `unknown output type "${output.type}"` });
    return null;
  }
  switch (output.type) {
    case 'product':
      if (!output.products?.length) {
        problems.push({ path: `${path}.products`, message: 'needs at least one product' });
        return null;
      }
      if (references) checkRefs(output.products, `${path}.products`, problems, references);
      return { type: 'product', refs: output.products };
    case 'collection':
      if (output.collection_id === undefined) {
        problems.push({ path: `${path}.collection_id`, message: 'is required' });
        return null;
      }
      if (references && !references.hasCollection(output.collection_id)) {
        problems.push({ path: `${path}.collection_id`, message: `unknown collection ${output.collection_id}` });
      }
      return { type: 'collection', collectionId: output.collection_id };
    case 'tag': {
      const tags = splitList(output.value).map((t) => t.toLowerCase());
      if (tags.length === 0) {
        problems.push({ path: `${path}.value`, message: 'needs a comma-separated list of tags' });
        return null;
      }
      return { type: 'tag', tags };
    }
    case 'endpoint': {
      const compiled = compileEndpoint(output.endpoint, `${path}.endpoint`, problems);
      const problem = compiled?.type === 'endpoint' ? references?.endpointProblem(compiled.path, compiled.query) : null;
      if (problem) problems.push({ path: `${path}.endpoint`, message: problem });
      return compiled;
    }
    default:
      return { type: output.type as 'none' | 'input_products' | 'matching_input_tags' };
  }
}

/** `/products/trending_products?limit=3` (an `/api/v1` prefix is accepted and dropped). */
function compileEndpoint(endpoint: string | undefined, path: string, problems: Problem[]): CompiledOutput | null {
  const text = (endpoint ?? '').trim().replace(/^\/api\/v1(?=\/)/, '');
  if (!/^\/[\w/-]+(\?.*)?$/.test(text)) {
    problems.push({ path, message: 'needs a list endpoint path such as /products/trending_products?limit=3' });
    return null;
  }
  const [pathname, search = ''] = text.split('?', 2) as [string, string?];
  const query: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(search)) query[k] = v;
  return { type: 'endpoint', path: pathname.replace(/\/+$/, ''), query };
}

function checkRefs(refs: ProductRef[], path: string, problems: Problem[], references: ReferenceCheck): void {
  refs.forEach((r, i) => {
    if (!references.hasProduct(r.product_id)) {
      problems.push({ path: `${path}[${i}].product_id`, message: `unknown product ${r.product_id}` });
      return;
    }
    r.variant_ids.forEach((v, j) => {
      if (!references.hasVariant(r.product_id, v))
        problems.push({
          path: `${path}[${i}].variant_ids[${j}]`,
          message: `variant ${v} is not a variant of product ${r.product_id}`,
        });
    });
  });
}
