import type { Evaluation, RuleTrace } from '../../domain/rules/evaluate.js';
import type { Rule } from '../../domain/rules/types.js';
import type { IndexedRuleset } from '../../indexes/shop-catalog.js';
import type { CommonOptions } from '../lists/options.js';
import { productArrayParts } from '../lists/render.js';
import type { Picked } from '../lists/select.js';
import type { ResolveError } from './resolve.js';

export interface CustomAnswer {
  data: Picked[];
  inputProducts: Picked[];
  filteredOos: Picked[];
  filteredInput: Picked[];
  evaluation: Evaluation;
  errors: ResolveError[];
}

const b = (text: string) => Buffer.from(text);

/** The rules of the answer as JSON, from the strings made when the ruleset was compiled. */
function rulesJson(rules: readonly Rule[], indexed: IndexedRuleset): string {
  const byRule = new Map(indexed.ruleset.rules.map((rule, i) => [rule, indexed.ruleJson[i]!]));
  return `[${rules.map((r) => byRule.get(r) ?? JSON.stringify(r)).join(',')}]`;
}

/** `{"data": […], "metadata": {…}}` (seed §1), plus `trace` for previews. */
export function renderCustomAnswer(answer: CustomAnswer, indexed: IndexedRuleset, options: CommonOptions, trace: RuleTrace[] | null): Buffer {
  const list = (picked: Picked[]) => [b('['), ...productArrayParts(picked, options), b(']')];
  const { evaluation } = answer;
  return Buffer.concat([
    b('{"data":'), ...list(answer.data),
    b(',"metadata":{"input_products":'), ...list(answer.inputProducts),
    b(`,"matched_rules":${rulesJson(evaluation.matched, indexed)}`),
    b(`,"unmatched_rules":${rulesJson(evaluation.unmatched, indexed)}`),
    b(`,"unevaluated_rules":${rulesJson(evaluation.unevaluated, indexed)}`),
    b(',"filtered_oos_products":'), ...list(answer.filteredOos),
    b(',"filtered_input_products":'), ...list(answer.filteredInput),
    b(`,"errors":${JSON.stringify(answer.errors)}}`),
    b(trace ? `,"trace":${JSON.stringify(trace)}}` : '}'),
  ]);
}
