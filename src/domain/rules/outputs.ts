import type { ReferenceCheck } from './compile.js';
import { splitList, type Problem } from './conditions/shared.js';
import { countryCondition } from './conditions/request.js';
import type { Output, ProductRef, Rule } from './types.js';

/**
 * One output type (the RETURN part), declared once: the rule catalog serves its first four
 * fields, `compile` validates a document's output and returns what the evaluator hands on (its
 * `type` added), and the compiled form's type (`CompiledOutput`) is derived from it, so the
 * service that resolves outputs into products fails to build until it handles a new one.
 */
export interface OutputSpec<T extends string = string, C extends object = object> {
  type: T;
  label: string;
  value: 'products' | 'collection' | 'tag_list' | 'endpoint' | 'none';
  description: string;
  compile(output: Output, path: string, problems: Problem[], references?: ReferenceCheck): C | null;
}

function defineOutput<const T extends string, C extends object>(spec: OutputSpec<T, C>): OutputSpec<T, C> {
  return spec;
}

/** Outputs with no value: nothing to check, nothing to carry. */
const valueless = () => ({});

/** Every output type, in the order the console offers them (docs/rules.md, "Outputs"). */
export const OUTPUTS = [
  defineOutput({
    type: 'product',
    label: 'These products',
    value: 'products',
    description: 'in the listed order; non-empty variant_ids keep only those variants',
    compile(output, path, problems, references): { refs: ProductRef[] } | null {
      if (!output.products?.length) {
        problems.push({ path: `${path}.products`, message: 'needs at least one product' });
        return null;
      }
      if (references) checkRefs(output.products, `${path}.products`, problems, references);
      return { refs: output.products };
    },
  }),
  defineOutput({
    type: 'collection',
    label: 'Products of a collection',
    value: 'collection',
    description: 'in collection position order',
    compile(output, path, problems, references): { collectionId: number } | null {
      if (output.collection_id === undefined) {
        problems.push({ path: `${path}.collection_id`, message: 'is required' });
        return null;
      }
      if (references && !references.hasCollection(output.collection_id)) {
        problems.push({ path: `${path}.collection_id`, message: `unknown collection ${output.collection_id}` });
      }
      return { collectionId: output.collection_id };
    },
  }),
  defineOutput({
    type: 'tag',
    label: 'Products with all these tags',
    value: 'tag_list',
    description: 'best sellers of the last 90 days first, then by id',
    compile(output, path, problems): { tags: string[] } | null {
      const tags = splitList(output.value).map((t) => t.toLowerCase());
      if (tags.length === 0) {
        problems.push({ path: `${path}.value`, message: 'needs a comma-separated list of tags' });
        return null;
      }
      return { tags };
    },
  }),
  defineOutput({
    type: 'matching_input_tags',
    label: 'Products sharing a matched tag',
    value: 'none',
    description: 'products carrying a tag of the input products that a product_tag condition matched',
    compile: valueless,
  }),
  defineOutput({
    type: 'input_products',
    label: 'The input products',
    value: 'none',
    description: 'the products named in the request',
    compile: valueless,
  }),
  defineOutput({
    type: 'endpoint',
    label: 'Another list',
    value: 'endpoint',
    description:
      'a list endpoint path with optional query, e.g. /products/trending_products?limit=3, resolved in-process',
    compile(output, path, problems, references) {
      const compiled = compileEndpoint(output.endpoint, `${path}.endpoint`, problems);
      if (!compiled) return null;
      const { repeated, ...endpoint } = compiled;
      // As the public API reads a query, a parameter twice is a mistake to name, not one to pick from. Checked
      // when a ruleset is saved (with references): one stored before keeps serving, the last value winning.
      if (references && repeated.length > 0)
        problems.push({ path: `${path}.endpoint`, message: `names the parameter ${repeated[0]} more than once` });
      const problem = references?.endpointProblem(endpoint.path, endpoint.query);
      if (problem) problems.push({ path: `${path}.endpoint`, message: problem });
      return endpoint;
    },
  }),
  defineOutput({
    type: 'none',
    label: 'Nothing',
    value: 'none',
    description: 'returns no products (useful with exit-if-matched)',
    compile: valueless,
  }),
];

type Compiled<S> = S extends OutputSpec<infer T, infer C> ? { type: T } & C : never;

/** What a rule's output compiles to, one member per declared output type. */
export type CompiledOutput = Compiled<(typeof OUTPUTS)[number]>;

export const OUTPUTS_BY_TYPE: ReadonlyMap<string, OutputSpec> = new Map(OUTPUTS.map((o) => [o.type, o]));

/** `/products/trending_products?limit=3` (an `/api/v1` prefix is accepted and dropped). */
/** The list parameters that choose a market: they need the shop's read_markets scope. */
export const MARKET_PARAMETERS = ['country_code', 'presentment_prices'] as const;

/** Whether any rule reads a country (a country condition) or names a market parameter in an endpoint output. */
export function asksForMarkets(rules: readonly Rule[]): boolean {
  const readsCountry = (rule: Rule) => rule.logic.some((g) => g.rules.some((c) => c.type === countryCondition.type));
  return rules.some(
    (rule) =>
      readsCountry(rule) ||
      rule.output.some((output) => {
        if (output.type !== 'endpoint') return false;
        const query = compileEndpoint(output.endpoint, '', [])?.query ?? {};
        return MARKET_PARAMETERS.some((name) => Object.hasOwn(query, name));
      }),
  );
}

function compileEndpoint(
  endpoint: string | undefined,
  path: string,
  problems: Problem[],
): { path: string; query: Record<string, string>; repeated: string[] } | null {
  const text = (endpoint ?? '').trim().replace(/^\/api\/v1(?=\/)/, '');
  if (!/^\/[\w/-]+(\?.*)?$/.test(text)) {
    problems.push({ path, message: 'needs a list endpoint path such as /products/trending_products?limit=3' });
    return null;
  }
  const [pathname, search = ''] = text.split('?', 2) as [string, string?];
  const query: Record<string, string> = {};
  const repeated: string[] = [];
  for (const [k, v] of new URLSearchParams(search)) {
    if (Object.hasOwn(query, k)) repeated.push(k);
    query[k] = v;
  }
  return { path: pathname.replace(/\/+$/, ''), query, repeated };
}

/** Pushes a problem for each product or variant the shop's catalog does not hold. */
export function checkRefs(refs: ProductRef[], path: string, problems: Problem[], references: ReferenceCheck): void {
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
