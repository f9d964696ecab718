import type { Rule } from '../../domain/rules/types.js';
import type { CustomAnswer } from '../../services/recommendations/index.js';
import { assemble, productArray, type RenderOptions } from './products.js';

const b = (text: string) => Buffer.from(text);

/** The rules of the answer as JSON, from the strings made when the ruleset was compiled. */
function rulesJson(rules: readonly Rule[], answer: CustomAnswer): string {
  const { ruleset, ruleJson } = answer.ruleset;
  const byRule = new Map(ruleset.rules.map((rule, i) => [rule, ruleJson[i]!]));
  return `[${rules.map((r) => byRule.get(r) ?? JSON.stringify(r)).join(',')}]`;
}

/** `{"data": […], "metadata": {…}}` of the custom endpoint, plus `trace` for previews; `previous` as in `assemble`. */
export function renderCustomAnswer(answer: CustomAnswer, options: RenderOptions, previous?: Buffer): Buffer {
  const { evaluation } = answer;
  return assemble(
    [
      b('{"data":'),
      ...productArray(answer.data, options),
      b(',"metadata":{"input_products":'),
      ...productArray(answer.inputProducts, options),
      b(`,"matched_rules":${rulesJson(evaluation.matched, answer)}`),
      b(`,"unmatched_rules":${rulesJson(evaluation.unmatched, answer)}`),
      b(`,"unevaluated_rules":${rulesJson(evaluation.unevaluated, answer)}`),
      b(',"filtered_oos_products":'),
      ...productArray(answer.filteredOos, options),
      b(',"filtered_input_products":'),
      ...productArray(answer.filteredInput, options),
      b(`,"errors":${JSON.stringify(answer.errors)},"source":${JSON.stringify(answer.source)}}`),
      b(evaluation.trace ? `,"trace":${JSON.stringify(evaluation.trace)}}` : '}'),
    ],
    previous,
  );
}
