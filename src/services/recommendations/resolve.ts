import { InvalidInputError } from '../../domain/errors.js';
import type { CompiledOutput } from '../../domain/rules/outputs.js';
import type { MatchedOutput } from '../../domain/rules/evaluate.js';
import type { IndexedProduct, ShopCatalog } from '../../indexes/shop-catalog.js';
import { bestSellingFirst } from '../../indexes/sales.js';
import type { Candidate } from '../lists/pipeline.js';
import {
  endpointParams,
  LIST_SOURCES,
  runListSource,
  type CallerContext,
  type ListBase,
} from '../lists/sources/index.js';

type ResolveContext = ListBase & { inputProducts: readonly IndexedProduct[]; caller: CallerContext };

export interface ResolveError {
  code: string;
  message: string;
  rule_index?: number;
  id?: number;
}

/**
 * Turns the matched rules' outputs into candidate products, in order; problems become `errors`
 * entries. Every output is resolved (and its problems reported) here, but a tag's or a collection's
 * products are read only as far as the filter reads them: it stops at the answer's limit, and such
 * a list can hold thousands of products.
 */
export async function resolveOutputs(
  outputs: readonly MatchedOutput[],
  context: ResolveContext,
  errors: ResolveError[],
): Promise<Iterable<Candidate>> {
  const parts: Iterable<Candidate>[] = [];
  // Outputs sharing matched tags share their products: a union once per request, not once per output.
  const byTags = new Map<string, Candidate[]>();
  for (const { output, ruleIndex, matchedTags } of outputs) {
    if (output.type === 'matching_input_tags') {
      const key = matchedTags.join('\n');
      const known = byTags.get(key) ?? matchingTags(context.catalog, matchedTags).map((product) => ({ product }));
      byTags.set(key, known);
      parts.push(known);
      continue;
    }
    parts.push(await resolveOne(output, ruleIndex, context, errors));
  }
  return chain(parts);
}

function* chain(parts: readonly Iterable<Candidate>[]): Generator<Candidate> {
  for (const part of parts) yield* part;
}

function* asCandidates(products: readonly IndexedProduct[]): Generator<Candidate> {
  for (const product of products) yield { product };
}

/**
 * One case per output declared in domain/rules/outputs.ts (matching_input_tags above): a new
 * output does not build until it has its case here.
 */
async function resolveOne(
  output: Exclude<CompiledOutput, { type: 'matching_input_tags' }>,
  ruleIndex: number,
  context: ResolveContext,
  errors: ResolveError[],
): Promise<Iterable<Candidate>> {
  const { catalog } = context;
  switch (output.type) {
    case 'product':
      return output.refs.flatMap((ref): Candidate[] => {
        const product = catalog.products.get(ref.product_id);
        if (!product) {
          errors.push({
            code: 'unknown_product',
            message: `Product ${ref.product_id} of rule ${ruleIndex + 1} is not in the catalog.`,
            rule_index: ruleIndex,
            id: ref.product_id,
          });
          return [];
        }
        if (ref.variant_ids.length === 0) return [{ product }];
        const keep = product.variants.flatMap((v, i) => (ref.variant_ids.includes(v.id) ? [i] : []));
        return keep.length > 0 ? [{ product, keep }] : [];
      });
    case 'collection': {
      const members = catalog.collectionMembers.get(output.collectionId);
      if (!members)
        errors.push({
          code: 'unknown_collection',
          message: `Collection ${output.collectionId} of rule ${ruleIndex + 1} does not exist.`,
          rule_index: ruleIndex,
          id: output.collectionId,
        });
      return asCandidates(members ?? []);
    }
    case 'tag':
      return taggedWithAll(catalog, output.tags);
    case 'input_products':
      return context.inputProducts.map((product) => ({ product }));
    case 'none':
      return [];
    case 'endpoint': {
      const source = LIST_SOURCES.get(output.path);
      if (!source) {
        errors.push({
          code: 'unknown_endpoint',
          message: `Rule ${ruleIndex + 1} names ${output.path}, which is not a list endpoint.`,
          rule_index: ruleIndex,
        });
        return [];
      }
      try {
        const { picked } = await runListSource(source, context, endpointParams(source, output.query, context.caller));
        return picked.map((p) => ({ product: p.product, ...(p.keep ? { keep: p.keep } : {}) }));
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        errors.push({
          code: 'invalid_endpoint_parameter',
          message: `Rule ${ruleIndex + 1}, ${output.path}: ${error.message}`,
          rule_index: ruleIndex,
        });
        return [];
      }
    }
  }
}

function* taggedWithAll(catalog: ShopCatalog, tags: readonly string[]): Generator<Candidate> {
  const [first, ...rest] = tags;
  if (first === undefined) return;
  for (const product of catalog.bestSellersTagged(first)) {
    if (rest.every((t) => product.tagsLower.includes(t))) yield { product };
  }
}

function matchingTags(catalog: ShopCatalog, tags: readonly string[]): IndexedProduct[] {
  const seen = new Map<number, IndexedProduct>();
  for (const tag of tags) for (const p of catalog.bestSellersTagged(tag)) seen.set(p.id, p);
  return [...seen.values()].sort(bestSellingFirst(catalog.sales));
}
