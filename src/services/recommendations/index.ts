import { NotFoundError } from '../../domain/errors.js';
import { compileRulesetInput, type CompiledRuleset } from '../../domain/rules/compile.js';
import { evaluateRuleset } from '../../domain/rules/evaluate.js';
import type { InputProduct, RuleWorld } from '../../domain/rules/types.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import type { IndexedMarket, IndexedProduct, IndexedRuleset, ShopCatalog } from '../../indexes/shop-catalog.js';
import type { ViewedIndex } from '../../indexes/viewed-index.js';
import { resolveMarket, type Picked } from '../lists/select.js';
import { loadCatalog, requireCatalog } from '../products.js';
import type { CustomRequest } from './params.js';
import { renderCustomAnswer, type CustomAnswer } from './respond.js';
import { resolveOutputs, type Candidate, type ResolveError } from './resolve.js';

/** Rule-driven recommendations: `GET /api/v1/custom/id/{id}` and the admin preview (product.md §4). */
export function createRecommendationsService(deps: { catalog: CatalogIndex; viewed: ViewedIndex }) {
  function rulesetOf(catalog: ShopCatalog, id: number): IndexedRuleset {
    const indexed = catalog.rulesets.get(id);
    if (!indexed || !indexed.ruleset.enabled) throw new NotFoundError(`Ruleset ${id} not found.`);
    return indexed;
  }

  async function run(catalog: ShopCatalog, indexed: IndexedRuleset, compiled: CompiledRuleset, request: CustomRequest, trace: boolean): Promise<Buffer> {
    const market = resolveMarket(catalog, request.options.countryCode);
    const errors: ResolveError[] = [];
    const inputs = inputProducts(catalog, request, errors);
    const evaluation = evaluateRuleset(compiled, request.rule, worldOf(catalog, inputs, request), { trace });
    const shopId = catalog.shop.id;
    const candidates = await resolveOutputs(evaluation.outputs, {
      catalog, viewed: (filter) => deps.viewed.handles(shopId, filter), inputProducts: inputs, callerQuery: request.query,
    }, errors);
    const answer = filterCandidates(catalog, candidates, inputs, market, {
      filterInputs: compiled.document.filter_input_products,
      filterOos: request.filterOos ?? compiled.document.filter_oos,
      limit: request.options.limit,
    });
    const inputPicked = inputs.filter((p) => visible(p, market)).map((p) => pick(catalog, p, market));
    return renderCustomAnswer({ ...answer, inputProducts: inputPicked, evaluation, errors }, indexed, request.options, evaluation.trace);
  }

  return {
    /** The public answer for a stored, enabled ruleset. */
    recommend(shopId: number, rulesetId: number, request: CustomRequest): Promise<Buffer> {
      const catalog = requireCatalog(deps.catalog, shopId);
      const indexed = rulesetOf(catalog, rulesetId);
      return run(catalog, indexed, indexed.compiled, request, false);
    },

    /** The same answer plus a trace; runs an unsaved document when one is given (the console's live preview). */
    async preview(shopId: number, rulesetId: number | null, request: CustomRequest, unsaved?: unknown): Promise<Buffer> {
      const catalog = await loadCatalog(deps.catalog, shopId);
      if (unsaved !== undefined) {
        const compiled = compileRulesetInput(unsaved, referencesOf(catalog));
        const indexed: IndexedRuleset = {
          ruleset: { id: rulesetId ?? 0, version: 0, created_at: '', updated_at: '', ...compiled.document },
          compiled,
          ruleJson: compiled.document.rules.map((r) => JSON.stringify(r)),
        };
        return run(catalog, indexed, compiled, request, true);
      }
      const indexed = catalog.rulesets.get(rulesetId ?? 0);
      if (!indexed) throw new NotFoundError(`Ruleset ${rulesetId} not found.`);
      return run(catalog, indexed, indexed.compiled, request, true);
    },
  };
}

export type RecommendationsService = ReturnType<typeof createRecommendationsService>;

/** Existence checks for saving a ruleset against a shop's catalog. */
export function referencesOf(catalog: ShopCatalog) {
  return {
    hasProduct: (id: number) => catalog.products.has(id),
    hasVariant: (productId: number, variantId: number) => catalog.byVariant.get(variantId)?.id === productId,
    hasCollection: (id: number) => catalog.collections.has(id),
  };
}

/** Input products: shop_product_ids in order, then the products of shop_variant_ids; unknown ids become errors. */
function inputProducts(catalog: ShopCatalog, request: CustomRequest, errors: ResolveError[]): IndexedProduct[] {
  const found = new Map<number, IndexedProduct>();
  for (const id of request.rule.productIds ?? []) {
    const product = catalog.products.get(id);
    if (product) found.set(id, product);
    else errors.push({ code: 'unknown_product', message: `Product ${id} is not in the catalog.`, id });
  }
  for (const id of request.rule.variantIds ?? []) {
    const product = catalog.byVariant.get(id);
    if (product) {
      if (!found.has(product.id)) found.set(product.id, product);
    } else {
      errors.push({ code: 'unknown_variant', message: `Variant ${id} is not in the catalog.`, id });
    }
  }
  return [...found.values()];
}

function worldOf(catalog: ShopCatalog, inputs: IndexedProduct[], request: CustomRequest): RuleWorld {
  const variantIds = request.rule.variantIds ?? [];
  const products: InputProduct[] = inputs.map((p) => ({
    id: p.id,
    handle: p.handle,
    productType: p.productType,
    vendor: p.vendor,
    tags: p.tags,
    collections: catalog.collectionsByProduct.get(p.id) ?? [],
    requestedVariantIds: p.variants.filter((v) => variantIds.includes(v.id)).map((v) => v.id),
  }));
  return {
    timezone: catalog.shop.timezone,
    inputProducts: products,
    customerTags: (id) => catalog.customers.get(id)?.tags ?? null,
    customerPurchased: (id) => catalog.sales.purchasedByCustomer.get(id) ?? (catalog.customers.has(id) ? new Set() : null),
  };
}

function visible(product: IndexedProduct, market: IndexedMarket | null): boolean {
  return product.listable && (!market?.catalog || market.catalog.has(product.id));
}

function pick(catalog: ShopCatalog, product: IndexedProduct, market: IndexedMarket | null, keep?: number[]): Picked {
  return {
    product,
    ...(keep ? { keep } : {}),
    ...(market ? { marketVariants: catalog.variantsInMarket(product, market).strings } : {}),
  };
}

/**
 * The filters of product.md §4, in order: duplicates (first place wins), input products,
 * unpublished / excluded / outside the market, out of stock, then the limit. The scan stops
 * once the answer is full, so the filtered lists name what was passed over to fill it.
 */
function filterCandidates(
  catalog: ShopCatalog,
  candidates: readonly Candidate[],
  inputs: readonly IndexedProduct[],
  market: IndexedMarket | null,
  options: { filterInputs: boolean; filterOos: boolean; limit: number },
): Pick<CustomAnswer, 'data' | 'filteredOos' | 'filteredInput'> {
  const inputIds = new Set(inputs.map((p) => p.id));
  const seen = new Set<number>();
  const data: Picked[] = [];
  const filteredOos: Picked[] = [];
  const filteredInput: Picked[] = [];
  for (const { product, keep } of candidates) {
    if (data.length >= options.limit) break;
    if (seen.has(product.id)) continue;
    seen.add(product.id);
    if (options.filterInputs && inputIds.has(product.id)) {
      if (visible(product, market)) filteredInput.push(pick(catalog, product, market));
      continue;
    }
    if (!visible(product, market)) continue;
    const inStock = keep ? keep.some((i) => product.variants[i]!.inStock) : product.inStock;
    if (options.filterOos && !inStock) {
      filteredOos.push(pick(catalog, product, market));
      continue;
    }
    data.push(pick(catalog, product, market, keep));
  }
  return { data, filteredOos, filteredInput };
}
