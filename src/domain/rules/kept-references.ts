import { CONDITIONS_BY_TYPE } from './catalog.js';
import type { ReferenceCheck } from './compile.js';
import { splitList } from './conditions/shared.js';
import type { ProductRef, Rule } from './types.js';

/**
 * The existence checks of a ruleset's update: what the stored version already named passes, even
 * where the catalog has lost it since (a deleted product or collection), so that switching the
 * ruleset off or renaming it needs no edit of its rules. A reference the update adds is checked
 * against the catalog as on create. The answer reports a lost reference as it did before the update.
 */
export function keepingStoredReferences(stored: readonly Rule[], catalog: ReferenceCheck): ReferenceCheck {
  const products = new Set<number>();
  const variants = new Set<string>();
  const collections = new Set<number>();
  const loneVariants = new Set<number>();
  const keep = (refs: readonly ProductRef[] | undefined) => {
    for (const ref of refs ?? []) {
      products.add(ref.product_id);
      for (const variant of ref.variant_ids) variants.add(`${ref.product_id}:${variant}`);
    }
  };
  for (const rule of stored) {
    for (const group of rule.logic) {
      for (const condition of group.rules) {
        keep(condition.products);
        // Variant and collection conditions name their ids in the value.
        const kind = CONDITIONS_BY_TYPE.get(condition.type)?.refersTo;
        const named = kind === 'variant' ? loneVariants : kind === 'collection' ? collections : null;
        if (named) for (const id of splitList(condition.value)) named.add(Number(id));
      }
    }
    for (const output of rule.output) {
      keep(output.products);
      if (output.collection_id !== undefined) collections.add(output.collection_id);
    }
  }
  return {
    hasProduct: (id) => products.has(id) || catalog.hasProduct(id),
    hasVariant: (productId, variantId) =>
      variants.has(`${productId}:${variantId}`) || catalog.hasVariant(productId, variantId),
    hasCollection: (id) => collections.has(id) || catalog.hasCollection(id),
    hasVariantId: (id) => loneVariants.has(id) || catalog.hasVariantId(id),
    endpointProblem: (path, query) => catalog.endpointProblem(path, query),
    readsMarkets: catalog.readsMarkets,
  };
}
