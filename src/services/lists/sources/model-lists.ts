import { InvalidInputError } from '../../../domain/errors.js';
import { affinitiesOf, forYou, recommendedFor, viewedTogether } from '../../../domain/models/rank.js';
import type { IndexedProduct } from '../../../indexes/shop-catalog.js';
import { identityParams } from '../../events/params.js';
import { single, type Query } from '../../params.js';
import { eachById, type ListContext, type ListSource } from './types.js';

/** The most recent views a visitor's `for_you` reads, each worth one purchase of affinity. */
const VIEWS_AS_AFFINITY = 20;

/** shop_product_ids, then the products of shop_variant_ids, each once. */
function inputsOf(context: ListContext): number[] {
  return [...new Set([...(context.productIds ?? []), ...context.variantProductIds])];
}

/** The model's ranking, then the shop's best sellers, so a widget is never empty. */
function* thenTopSellers(context: ListContext, ranked: Iterable<number>, skip: ReadonlySet<number>): Generator<IndexedProduct> {
  yield* eachById(context.catalog, ranked, skip);
  yield* eachById(context.catalog, context.catalog.sales.topSellers, skip);
}

export const recommendedSource: ListSource = {
  path: '/products/recommended',
  summary: 'Bought together with the input products (the shop\'s model: weighted co-occurrence by default, or SAR count, Jaccard or lift), then best sellers so the list is never empty',
  params: { shop_product_ids: 'the input products (without them: best sellers)', shop_variant_ids: 'comma-separated variant ids: their products are inputs too' },
  limits: { fallback: 5, max: 100 },
  candidates(context) {
    const inputs = inputsOf(context);
    const model = context.model()?.model;
    // Read lazily: the answer usually fills from the first few ids.
    return thenTopSellers(context, model && inputs.length > 0 ? recommendedFor(model, inputs) : [], new Set(inputs));
  },
};

/** include_purchased: yes / no and their tolerant spellings; absent takes the shop's setting. */
function includePurchased(query: Query, fallback: boolean): boolean {
  const raw = single(query, 'include_purchased')?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['yes', 'true', '1'].includes(raw)) return true;
  if (['no', 'false', '0'].includes(raw)) return false;
  throw new InvalidInputError('include_purchased', `Parameter include_purchased must be yes or no, got "${raw.slice(0, 40)}".`);
}

export const forYouSource: ListSource = {
  path: '/products/for_you',
  summary: 'Personal picks: the visitor\'s affinities (purchases decayed by age, session views) times product similarity, then best sellers',
  params: {
    shop_customer_id: 'the storefront customer (this or uuid is required)',
    uuid: 'the session: its recent views count as affinity',
    include_purchased: 'yes: keep products the customer already bought (default: the shop\'s for_you_include_purchased setting, off)',
  },
  limits: { fallback: 5, max: 100 },
  async candidates(context, query) {
    identityParams(query); // the seed's 400 when neither identity is given
    const { catalog } = context;
    const keep = includePurchased(query, catalog.shop.settings.for_you_include_purchased ?? false);
    const model = context.model()?.model;
    const affinities = model && context.customerId !== null ? affinitiesOf(model, context.customerId) : [];
    const views = (await context.viewedHandles()).slice(0, VIEWS_AS_AFFINITY).flatMap((h) => {
      const product = catalog.byHandle.get(h);
      return product ? [{ productId: product.id, weight: 1 }] : [];
    });
    // Purchases as they are now (the model may be a few minutes old), and as the model knows them.
    const fresh = context.customerId === null ? undefined : catalog.sales.purchasedByCustomer.get(context.customerId);
    const skip = keep ? new Set<number>() : new Set<number>([...(fresh?.keys() ?? []), ...affinities.map((a) => a.productId)]);
    return thenTopSellers(context, model ? forYou(model, affinities, views, skip) : [], skip);
  },
};

export const viewedTogetherSource: ListSource = {
  path: '/products/viewed_together',
  summary: 'Products viewed in the same sessions as the input products (the last 30 days of views), then best sellers',
  params: { shop_product_ids: 'the input products (required)', shop_variant_ids: 'comma-separated variant ids: their products are inputs too' },
  limits: { fallback: 5, max: 100 },
  candidates(context) {
    const inputs = inputsOf(context);
    if (inputs.length === 0) throw new InvalidInputError('shop_product_ids', 'Missing required endpoint argument: shop_product_ids.');
    const { catalog } = context;
    const model = context.model()?.model;
    const handles = inputs.flatMap((id) => catalog.products.get(id)?.handle ?? []);
    const together = model ? viewedTogether(model, handles).flatMap((h) => catalog.byHandle.get(h)?.id ?? []) : [];
    return thenTopSellers(context, together, new Set(inputs));
  },
};

/** Products a session or customer viewed, most recent first, each once (never cached: every view changes it). */
function viewedList(path: string, summary: string): ListSource {
  return {
    path,
    summary,
    params: { uuid: 'session UUID (this or shop_customer_id is required)', shop_customer_id: 'storefront customer' },
    limits: { fallback: 5, max: 100 },
    uncached: true,
    async candidates(context, query) {
      identityParams(query);
      const handles = await context.viewedHandles();
      return handles.flatMap((h) => context.catalog.byHandle.get(h) ?? []);
    },
  };
}

export const viewedSource = viewedList('/products/viewed', 'Products a session or customer viewed, most recent first, each once');
export const recentlyViewedSource = viewedList('/products/recently_viewed', 'Alias of /products/viewed');
