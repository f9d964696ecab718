import { rulesetSource } from '../../domain/attribution/source.js';
import { InvalidDocumentError, NotFoundError } from '../../domain/errors.js';
import type { Routing } from '../../domain/experiments/routing.js';
import { compileRulesetInput, type CompiledRuleset, type ReferenceCheck } from '../../domain/rules/compile.js';
import { PATTERN_WORK_PER_EVALUATION } from '../../domain/rules/pattern.js';
import { InvalidInputError } from '../../domain/errors.js';
import { readParams, readsName } from '../../domain/params/read.js';
import { LIST_SOURCES } from '../lists/sources/index.js';
import { evaluateRuleset } from '../../domain/rules/evaluate.js';
import { MARKET_PARAMETERS } from '../../domain/rules/outputs.js';
import type { InputProduct, RuleWorld } from '../../domain/rules/types.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import type { ModelIndex } from '../../indexes/model-index.js';
import type { IndexedProduct, IndexedRuleset, ShopCatalog } from '../../indexes/shop-catalog.js';
import type { ViewedIndex } from '../../indexes/viewed-index.js';
import type { Evaluation } from '../../domain/rules/evaluate.js';
import { examinedBound, filterProducts, PASSED_OVER_LISTED, resolveMarket, type Picked } from '../lists/pipeline.js';
import { loadCatalog } from '../../indexes/catalog-lookup.js';
import { withOrderProducts, type CustomRequest } from './params.js';
import { resolveOutputs, type ResolveError } from './resolve.js';

/** The custom endpoint's answer as data; HTTP renders it (docs/rules.md, "Evaluation"). */
export interface CustomAnswer {
  ruleset: IndexedRuleset;
  data: Picked[];
  inputProducts: Picked[];
  filteredOos: Picked[];
  filteredInput: Picked[];
  evaluation: Evaluation;
  errors: ResolveError[];
  /** `metadata.source`: the served ruleset's id and version, and the experiment arm that chose it. */
  source: string;
}

/** How one ruleset run answers: with a trace (the preview), for an experiment arm, or empty (the empty control arm). */
interface RunOptions {
  trace?: boolean;
  arm?: string | null;
  empty?: boolean;
}

/** Rule-driven recommendations: `GET /api/v1/custom/id/{id}` and the admin preview (docs/rules.md). */
export function createRecommendationsService(deps: {
  catalog: CatalogIndex;
  viewed: ViewedIndex;
  models: ModelIndex;
  /** Distinct products of a shop's orders (a thank-you page's input products); with `customerId`, of theirs only. */
  orderProducts: (shopId: number, orderIds: number[], customerId?: number) => Promise<number[]>;
}) {
  function rulesetOf(catalog: ShopCatalog, id: number): IndexedRuleset {
    const indexed = catalog.rulesets.get(id);
    if (!indexed?.ruleset.enabled) throw new NotFoundError(`Ruleset ${id} not found.`, 'unknown_ruleset');
    return indexed;
  }

  /**
   * The products of a thank-you page's orders. A shop that requires customer signatures shows only
   * the orders of the request's customer (whose signature the edge checked): with the public key
   * alone, sequential order ids would list what every order held. Others, guest orders included,
   * read as orders not yet known do: no input products.
   */
  async function ordersProducts(catalog: ShopCatalog, orderIds: number[], asked: CustomRequest): Promise<number[]> {
    if (!catalog.shop.settings.require_customer_signature) return deps.orderProducts(catalog.shop.id, orderIds);
    const customerId = asked.rule.customerId;
    return customerId === null ? [] : deps.orderProducts(catalog.shop.id, orderIds, customerId);
  }

  async function run(
    catalog: ShopCatalog,
    indexed: IndexedRuleset,
    compiled: CompiledRuleset,
    asked: CustomRequest,
    options: RunOptions = {},
  ): Promise<CustomAnswer> {
    const { trace = false, arm = null, empty = false } = options;
    const request = await withOrderProducts(asked, (orderIds) => ordersProducts(catalog, orderIds, asked));
    const market = resolveMarket(catalog, request.place);
    const errors: ResolveError[] = [];
    const inputs = inputProducts(catalog, request, errors);
    // The empty control of an experiment answers no products: no rule runs.
    const evaluation: Evaluation = empty
      ? {
          matched: [],
          unmatched: [],
          unevaluated: [],
          outputs: [],
          trace: trace ? [] : null,
          patternWorkExhausted: false,
        }
      : evaluateRuleset(compiled, request.rule, worldOf(catalog, inputs, request), { trace });
    if (evaluation.patternWorkExhausted)
      errors.push({
        code: 'pattern_work_limit',
        message:
          `The rules' patterns were matched against the first values only: all values take more than a ` +
          `request may spend on patterns (${PATTERN_WORK_PER_EVALUATION.toLocaleString('en')} ` +
          'instructions × characters); the rest were not matched.',
      });
    const shopId = catalog.shop.id;
    const candidates = await resolveOutputs(
      evaluation.outputs,
      {
        catalog,
        viewed: (filter) => deps.viewed.handles(shopId, filter),
        model: () => deps.models.get(shopId),
        content: () => deps.models.content(shopId),
        inputProducts: inputs,
        caller: request.caller,
      },
      errors,
    );
    const filtered = filterProducts(catalog, candidates, {
      market,
      limit: request.limit,
      filterOos: request.filterOos ?? compiled.document.filter_oos,
      ...((request.filterInputs ?? compiled.document.filter_input_products)
        ? { exclude: new Set(inputs.map((p) => p.id)) }
        : {}),
    });
    if (filtered.cutShort)
      errors.push({
        code: 'candidate_limit',
        message:
          `The matched rules' outputs proposed more products than an answer examines ` +
          `(${examinedBound(catalog).toLocaleString('en')}); the answer holds what the first of them gave.`,
      });
    if (filtered.outOfStockCount > PASSED_OVER_LISTED)
      errors.push({
        code: 'filtered_oos_limit',
        message:
          `${filtered.outOfStockCount.toLocaleString('en')} products were passed over for being out of stock; ` +
          `filtered_oos_products lists the first ${PASSED_OVER_LISTED}.`,
      });
    // Input products are shown as they are, whatever their stock; only unlisted or out-of-market ones are left out.
    const shown = filterProducts(
      catalog,
      inputs.map((product) => ({ product })),
      { market, limit: inputs.length, filterOos: false },
    );
    return {
      ruleset: indexed,
      data: filtered.picked,
      inputProducts: shown.picked,
      filteredOos: filtered.outOfStock,
      filteredInput: filtered.excluded,
      evaluation,
      errors,
      source: rulesetSource(indexed.ruleset.id, indexed.ruleset.version, arm),
    };
  }

  return {
    /** The public answer for a stored, enabled ruleset, from the request's catalog generation. */
    recommend(
      catalog: ShopCatalog,
      rulesetId: number,
      request: CustomRequest,
      routing?: Routing,
    ): Promise<CustomAnswer> {
      const asked = rulesetOf(catalog, rulesetId);
      if (!routing || routing.servedId === rulesetId)
        return run(catalog, asked, asked.compiled, request, { arm: routing?.arm?.name ?? null });
      if (routing.servedId === null)
        return run(catalog, asked, asked.compiled, request, { arm: routing.arm?.name ?? null, empty: true });
      // Routing checked the served ruleset against this same generation;
      // a newer one that lost it answers as the asked ruleset.
      const served = catalog.rulesets.get(routing.servedId);
      if (!served?.ruleset.enabled) return run(catalog, asked, asked.compiled, request);
      return run(catalog, served, served.compiled, request, { arm: routing.arm?.name ?? null });
    },

    /** The same answer plus a trace; runs an unsaved document when one is given (the console's live preview). */
    async preview(
      shopId: number,
      rulesetId: number | null,
      request: CustomRequest,
      unsaved?: unknown,
    ): Promise<CustomAnswer> {
      const catalog = await loadCatalog(deps.catalog, shopId);
      if (unsaved !== undefined) {
        const compiled = compileRulesetInput(unsaved, referencesOf(catalog));
        const indexed: IndexedRuleset = {
          ruleset: { id: rulesetId ?? 0, version: 0, created_at: '', updated_at: '', ...compiled.document },
          compiled,
          ruleJson: compiled.document.rules.map((r) => JSON.stringify(r)),
        };
        return run(catalog, indexed, compiled, request, { trace: true });
      }
      if (rulesetId === null)
        throw new InvalidDocumentError('Previewing a new ruleset needs its document under "ruleset".', [
          { path: 'ruleset', message: 'is required for a new ruleset' },
        ]);
      const indexed = catalog.rulesets.get(rulesetId);
      if (!indexed) throw new NotFoundError(`Ruleset ${rulesetId} not found.`, 'unknown_ruleset');
      return run(catalog, indexed, indexed.compiled, request, { trace: true });
    },
  };
}

export type RecommendationsService = ReturnType<typeof createRecommendationsService>;

/** Existence checks for saving a ruleset against a shop's catalog. */
export function referencesOf(catalog: ShopCatalog): ReferenceCheck {
  return {
    hasProduct: (id: number) => catalog.products.has(id),
    hasVariant: (productId: number, variantId: number) => catalog.byVariant.get(variantId)?.id === productId,
    hasCollection: (id: number) => catalog.collections.has(id),
    hasVariantId: (variantId: number) => catalog.byVariant.has(variantId),
    readsMarkets: catalog.shop.scopes.includes('read_markets'),
    endpointProblem(path, query) {
      const source = LIST_SOURCES.get(path);
      if (!source) return `${path} is not a list endpoint (one of ${[...LIST_SOURCES.keys()].join(', ')})`;
      // Saved, a market parameter without the scope would refuse every request of the ruleset (a 403).
      const market = MARKET_PARAMETERS.find((name) => Object.hasOwn(query, name));
      if (market && !catalog.shop.scopes.includes('read_markets'))
        return `${market} needs the read_markets scope, which this shop's keys do not have`;
      // A storefront's extra parameters are ignored; one the merchant wrote here (`limt=3`) would be a silent default.
      const unread = Object.keys(query).find((name) => !readsName(source.schema, name));
      if (unread !== undefined) return `${path} does not read the parameter ${unread}`;
      try {
        readParams(source.schema, query);
        return null;
      } catch (error) {
        if (error instanceof InvalidInputError) return error.message;
        throw error;
      }
    },
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
    customerTags: (id) => catalog.customers.tagsOf(id) ?? null,
    customerPurchased: (id) =>
      catalog.sales.purchasedByCustomer.get(id) ?? (catalog.customers.has(id) ? new Set() : null),
  };
}
