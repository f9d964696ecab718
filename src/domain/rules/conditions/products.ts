import { testWithin } from '../pattern.js';
import type { Condition, InputProduct, ProductRef } from '../types.js';
import {
  ABSENT,
  idsOf,
  matching,
  operatorOf,
  regexOf,
  setTest,
  splitList,
  type ConditionSpec,
  type OperatorSpec,
  type Problem,
} from './shared.js';

const SET_OPS: OperatorSpec[] = [
  { code: 'contains_any', label: 'contains any of', value: 'products' },
  { code: 'contains_all', label: 'contains all of', value: 'products' },
  { code: 'does_not_contain_any', label: 'contains none of', value: 'products' },
];

export function productRefsOf(
  condition: { products?: ProductRef[] },
  path: string,
  problems: Problem[],
): ProductRef[] | null {
  if (!condition.products || condition.products.length === 0) {
    problems.push({ path: `${path}.products`, message: 'needs at least one product' });
    return null;
  }
  return condition.products;
}

/** A product reference, compiled: its variant ids a set (null: any variant of the product). */
type CompiledRef = { productId: number; variants: ReadonlySet<number> | null };

const compiledRef = (ref: ProductRef): CompiledRef => ({
  productId: ref.product_id,
  variants: ref.variant_ids.length === 0 ? null : new Set(ref.variant_ids),
});

/**
 * A product reference matches an input product; its variant ids narrow it to those variants. Looked
 * up, not searched: 1,000 references of 250 variants each over 250 input variants were quadratic.
 */
function refMatches(ref: CompiledRef, inputs: ReadonlyMap<number, InputProduct>): boolean {
  const input = inputs.get(ref.productId);
  if (!input) return false;
  const { variants } = ref;
  return variants === null || input.requestedVariantIds.some((v) => variants.has(v));
}

export const productCondition: ConditionSpec = {
  type: 'product',
  label: 'Input products',
  input: 'shop_product_ids, shop_variant_ids',
  operators: SET_OPS,
  compile(condition, path, problems) {
    const op = operatorOf(this, condition, path, problems);
    const refs = productRefsOf(condition, path, problems)?.map(compiledRef);
    if (!op || !refs) return null;
    return (request, world) => {
      if (request.productIds === null && request.variantIds === null) return ABSENT;
      const inputs = new Map(world.inputProducts.map((p) => [p.id, p]));
      return {
        result: setTest(op.code, refs, (ref) => refMatches(ref, inputs)),
        observed: world.inputProducts.map((p) => p.id),
      };
    };
  },
};

export const variantCondition: ConditionSpec = {
  type: 'variant',
  label: 'Input variants',
  input: 'shop_variant_ids',
  refersTo: 'variant',
  operators: SET_OPS.map((o) => ({ ...o, value: 'variant_id_list' as const })),
  compile(condition, path, problems) {
    const op = operatorOf(this, condition, path, problems);
    const ids = idsOf(condition.value, `${path}.value`, problems);
    if (!op || !ids) return null;
    return (request) => {
      if (request.variantIds === null) return ABSENT;
      const have = new Set(request.variantIds);
      return { result: setTest(op.code, ids, (id) => have.has(id)), observed: request.variantIds };
    };
  },
};

const ATTRIBUTE_OPS: OperatorSpec[] = [
  { code: 'contains_any', label: 'contains any of', value: 'text_list' },
  { code: 'contains_all', label: 'contains all of', value: 'text_list' },
  { code: 'does_not_contain_any', label: 'contains none of', value: 'text_list' },
  { code: 'equals', label: 'is exactly', value: 'text_list' },
  { code: 'matches_regex', label: 'matches the pattern', value: 'text_or_regex' },
];

type AttributeValues = { values: string[]; lower: Map<string, string> };

/** Per request (its input products), each attribute's values as the conditions compare them. */
const attributesRead = new WeakMap<readonly InputProduct[], Map<string, AttributeValues>>();

/**
 * The input products' distinct values of one attribute, read once a request however many conditions
 * ask: 99 tag conditions each reading 250 products' tags anew held the process for a minute.
 */
function attributeValues(
  inputs: readonly InputProduct[],
  type: string,
  read: (p: InputProduct) => readonly string[],
): AttributeValues {
  let byType = attributesRead.get(inputs);
  if (!byType) {
    byType = new Map();
    attributesRead.set(inputs, byType);
  }
  let found = byType.get(type);
  if (!found) {
    const values = [...new Set(inputs.flatMap(read))];
    found = { values, lower: new Map(values.map((v) => [v.toLowerCase(), v])) };
    byType.set(type, found);
  }
  return found;
}

/** product_tag, product_type, product_vendor, product_handle: compared case-insensitively. */
function attributeCondition(type: string, label: string, read: (p: InputProduct) => readonly string[]): ConditionSpec {
  return {
    type,
    label,
    input: 'attributes of the input products',
    operators: ATTRIBUTE_OPS,
    compile(condition: Condition, path: string, problems: Problem[]) {
      const op = operatorOf(this, condition, path, problems);
      if (!op) return null;
      if (op.code === 'matches_regex') {
        const regex = regexOf(condition.value, `${path}.value`, problems);
        if (!regex) return null;
        return matching(regex, (request, world, work) => {
          if (request.productIds === null && request.variantIds === null) return ABSENT;
          const { values } = attributeValues(world.inputProducts, type, read);
          const matched = values.filter((v) => testWithin(regex, v, work) === true);
          return {
            result: matched.length > 0,
            observed: values,
            ...(type === 'product_tag' ? { matchedTags: matched } : {}),
          };
        });
      }
      const wanted = splitList(condition.value).map((v) => v.toLowerCase());
      if (wanted.length === 0) {
        problems.push({ path: `${path}.value`, message: 'needs a comma-separated list of values' });
        return null;
      }
      return (request, world) => {
        if (request.productIds === null && request.variantIds === null) return ABSENT;
        const { values, lower } = attributeValues(world.inputProducts, type, read);
        const result =
          op.code === 'equals'
            ? lower.size === new Set(wanted).size && wanted.every((w) => lower.has(w))
            : setTest(op.code, wanted, (w) => lower.has(w));
        const matchedTags =
          type === 'product_tag' && result && op.code !== 'does_not_contain_any'
            ? wanted.filter((w) => lower.has(w)).map((w) => lower.get(w)!)
            : undefined;
        return { result, observed: values, ...(matchedTags ? { matchedTags } : {}) };
      };
    },
  };
}

export const attributeConditions: ConditionSpec[] = [
  attributeCondition('product_tag', 'Tags of the input products', (p) => p.tags),
  attributeCondition('product_type', 'Type of the input products', (p) => (p.productType ? [p.productType] : [])),
  attributeCondition('product_vendor', 'Vendor of the input products', (p) => (p.vendor ? [p.vendor] : [])),
  attributeCondition('product_handle', 'Handle of the input products', (p) => [p.handle]),
];

export const collectionCondition: ConditionSpec = {
  type: 'collection',
  label: 'Collections of the input products',
  input: 'collections of the input products',
  refersTo: 'collection',
  operators: [
    { code: 'contains_any', label: 'is in any of', value: 'collection_id_list' },
    { code: 'does_not_contain_any', label: 'is in none of', value: 'collection_id_list' },
  ],
  compile(condition, path, problems) {
    const op = operatorOf(this, condition, path, problems);
    const ids = idsOf(condition.value, `${path}.value`, problems);
    if (!op || !ids) return null;
    return (request, world) => {
      if (request.productIds === null && request.variantIds === null) return ABSENT;
      const have = collectionsOf(world.inputProducts);
      return { result: setTest(op.code, ids, (id) => have.has(id)), observed: [...have] };
    };
  },
};

const collectionsRead = new WeakMap<readonly InputProduct[], Set<number>>();

/** The input products' collections, read once a request however many conditions ask. */
function collectionsOf(inputs: readonly InputProduct[]): Set<number> {
  let have = collectionsRead.get(inputs);
  if (!have) {
    have = new Set(inputs.flatMap((p) => p.collections));
    collectionsRead.set(inputs, have);
  }
  return have;
}
