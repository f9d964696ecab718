import { InvalidDocumentError, InvalidInputError, NotFoundError } from '../domain/errors.js';
import { validateDocument } from '../domain/inputs/validate.js';
import { visitorKey } from '../domain/experiments/assign.js';
import { routeRequest } from '../domain/experiments/routing.js';
import { customParams, type CustomParams } from '../domain/params/custom.js';
import type { TParams } from '../domain/params/param.js';
import { readParams, readsName } from '../domain/params/read.js';
import type { TProperties } from '@sinclair/typebox';
import { publicWidget, WidgetInput, type PublicWidget, type Widget } from '../domain/widgets/widget.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { WidgetStore } from '../store/kysely/widgets.js';
import { LIST_SOURCES, type ListAnswer, type ListParams } from './lists/sources/index.js';
import { loadCatalog } from '../indexes/catalog-lookup.js';
import type { ListsService } from './lists/index.js';
import type { CustomAnswer, RecommendationsService } from './recommendations/index.js';
import { customRequestOf } from './recommendations/params.js';

/**
 * Lists a widget can never fill: the page sends the products and variants it shows, the cart, the
 * customer, the country and the session (widget/src/config.ts), never what these need.
 */
const UNFILLABLE = new Map([
  ['static', 'ids or handles'],
  ['search', 'a query'],
  ['collections', 'shop_collection_ids'],
]);

/** The products a widget's source gives, as the storefront would get them. */
export type WidgetPreview =
  | { kind: 'ruleset'; answer: CustomAnswer; params: CustomParams }
  | { kind: 'list'; answer: ListAnswer; params: ListParams };

function problem(path: string, message: string): never {
  throw new InvalidDocumentError(`Invalid widget: ${path}: ${message}.`, [{ path, message }]);
}

/** What is wrong with a source's list name, or null: one the API lacks, or one a widget's page cannot fill. */
function listProblem(list: string): string | null {
  if (!LIST_SOURCES.has(`/products/${list}`))
    return `unknown list "${list}"; lists are those under /api/v1/products/ (trending_products, top_sellers, …)`;
  const needs = UNFILLABLE.get(list);
  if (needs === undefined) return null;
  return (
    `the ${list} list needs ${needs}, which a widget's page does not send; ` +
    'a ruleset with that list as an endpoint output can name it'
  );
}

/**
 * The design checked against its schema, its list's name told beside the schema's problem: a missing
 * `limit` must not hide that the list itself does not exist, which the merchant would learn only next.
 */
function validatedWithItsList(body: unknown): WidgetInput {
  const source = typeof body === 'object' && body !== null ? (body as { source?: unknown }).source : undefined;
  const list = typeof source === 'object' && source !== null ? (source as { list?: unknown }).list : undefined;
  const listMessage = typeof list === 'string' ? listProblem(list) : null;
  let input: WidgetInput;
  try {
    input = validateDocument(WidgetInput, body, 'widget');
  } catch (error) {
    if (listMessage === null || !(error instanceof InvalidDocumentError)) throw error;
    const others = error.problems.filter((p) => p.path !== 'source.list');
    throw new InvalidDocumentError(
      `Invalid widget: source.list: ${listMessage}${others.length ? ` (and ${others.length} more problems)` : ''}.`,
      [{ path: 'source.list', message: listMessage }, ...others],
    );
  }
  if (listMessage !== null) problem('source.list', listMessage);
  return input;
}

/**
 * A preview's page context: what the source reads, `limit` aside (the design says how many). The storefront's
 * extras are ignored on the public routes; here a misspelt `shop_product_id` would preview a page never meant.
 */
function pageReadBy(schema: TParams<TProperties>, page: Readonly<Record<string, unknown>>): void {
  for (const name of Object.keys(page)) {
    if (name === 'limit')
      throw new InvalidInputError(name, 'limit: the design says how many (cards, or source.limit), not the page');
    if (!readsName(schema, name))
      throw new InvalidInputError(name, `Parameter ${name} is not one the widget's source reads.`);
  }
}

/**
 * Storefront widgets as data (docs/widget.md, "Widgets as data"): the merchant's design and
 * source, read by /widget.js, so a change needs no edit of the theme.
 */
export function createWidgetsService(deps: {
  store: WidgetStore;
  catalog: CatalogIndex;
  lists: ListsService;
  recommendations: RecommendationsService;
}) {
  const { store, catalog } = deps;

  /** Checks the document and that its source exists and serves: a widget never points at nothing when saved. */
  async function checked(shopId: number, body: unknown): Promise<WidgetInput> {
    const input = validatedWithItsList(body);
    const source = input.source;
    if ('ruleset_id' in source) {
      const ruleset = (await loadCatalog(catalog, shopId)).rulesets.get(source.ruleset_id)?.ruleset;
      if (!ruleset) problem('source.ruleset_id', `unknown ruleset ${source.ruleset_id}`);
      // Storefronts get a 404 from a disabled ruleset: the widget would show nothing.
      if (!ruleset.enabled) problem('source.ruleset_id', `ruleset ${source.ruleset_id} is disabled; enable it first`);
    }
    return input;
  }

  async function find(shopId: number, id: number): Promise<Widget> {
    const widget = await store.getWidget(shopId, id);
    if (!widget) throw new NotFoundError(`Widget ${id} not found.`);
    return widget;
  }

  return {
    async create(shopId: number, body: unknown): Promise<Widget> {
      const widget = await store.createWidget(shopId, await checked(shopId, body));
      // The write moved the data version: cached widget answers of this shop are unreachable now.
      await catalog.apply(shopId, {});
      return widget;
    },
    async update(shopId: number, id: number, body: unknown): Promise<Widget> {
      const widget = await store.updateWidget(shopId, id, await checked(shopId, body));
      if (!widget) throw new NotFoundError(`Widget ${id} not found.`);
      await catalog.apply(shopId, {});
      return widget;
    },
    async remove(shopId: number, id: number): Promise<void> {
      if (!(await store.deleteWidget(shopId, id))) throw new NotFoundError(`Widget ${id} not found.`);
      await catalog.apply(shopId, {});
    },
    get: find,
    list(shopId: number): Promise<Widget[]> {
      return store.listWidgets(shopId);
    },
    /** What a storefront reads. */
    async storefront(shopId: number, id: number): Promise<PublicWidget> {
      return publicWidget(await find(shopId, id));
    },

    /**
     * The products a design (saved or not) shows, read exactly as the storefront's request would read them:
     * `page` is what the page would send (its products, customer, visitor, cart), the design says how many.
     */
    async preview(shopId: number, body: unknown, page: Readonly<Record<string, unknown>>): Promise<WidgetPreview> {
      const input = await checked(shopId, body);
      const source = input.source;
      pageReadBy('ruleset_id' in source ? customParams : LIST_SOURCES.get(`/products/${source.list}`)!.schema, page);
      // The admin API does not load the shop's read model by itself, as the storefront routes do.
      const generation = await loadCatalog(catalog, shopId);
      if ('ruleset_id' in source) {
        const params = readParams(customParams, { ...page, limit: String(input.cards) });
        // Routed as the page's visitor is (without one: a running experiment's first arm, a stopped one's winner);
        // a preview is no exposure, so nothing is recorded.
        const servable = (id: number) => generation.rulesets.get(id)?.ruleset.enabled === true;
        const visitor = visitorKey(params.uuid, params.shop_customer_id);
        const routing = routeRequest(generation.experiments, source.ruleset_id, visitor, servable);
        const request = customRequestOf(params, Date.now());
        const answer = await deps.recommendations.recommend(generation, source.ruleset_id, request, routing);
        return { kind: 'ruleset', answer, params };
      }
      const list = LIST_SOURCES.get(`/products/${source.list}`)!;
      const params = readParams(list.schema, { ...page, limit: String(source.limit) }) as ListParams;
      return { kind: 'list', answer: await deps.lists.list(generation, list, params), params };
    },
  };
}

export type WidgetsService = ReturnType<typeof createWidgetsService>;
