import { MissingInputError } from '../../../domain/errors.js';
import { affinitiesOf, forYou, forYouBlendOf, recommendedFor, viewedTogether } from '../../../domain/models/rank.js';
import { requireIdentity } from '../../../domain/params/event.js';
import { idList, optionalFlag, positiveId } from '../../../domain/params/kinds.js';
import { sessionId } from '../../../domain/params/text-kinds.js';
import type { IndexedProduct } from '../../../indexes/shop-catalog.js';
import { defineList, eachById, type ListContext } from './types.js';

/** The most recent views a visitor's `for_you` reads, each worth one purchase of affinity. */
const VIEWS_AS_AFFINITY = 20;

const inputs = {
  shop_product_ids: idList('the input products'),
  shop_variant_ids: idList('variants whose products are inputs too'),
};

/** shop_product_ids, then the products of shop_variant_ids, each once. */
function inputsOf(context: ListContext): number[] {
  return [...new Set([...(context.productIds ?? []), ...context.variantProductIds])];
}

/** The model's ranking, then the shop's best sellers, so a widget is never empty. */
function* thenTopSellers(
  context: ListContext,
  ranked: Iterable<number>,
  skip: ReadonlySet<number>,
): Generator<IndexedProduct> {
  yield* eachById(context.catalog, ranked, skip);
  yield* eachById(context.catalog, context.catalog.sales.topSellers, skip);
}

export const recommendedSource = defineList({
  path: '/products/recommended',
  summary:
    "Bought together with the input products (the shop's model: weighted co-occurrence by default, or SAR count, " +
    'Jaccard or lift), then best sellers so the list is never empty',
  params: inputs,
  candidates(context) {
    const seeds = inputsOf(context);
    const model = context.model()?.model;
    if (seeds.length === 0) return thenTopSellers(context, [], new Set());
    // Until the shop's first model is in (seconds after an import),
    // raw co-occurrence from the read model: never weaker (§19).
    const ranked = model ? recommendedFor(model, seeds) : context.catalog.sales.coPurchases.top(seeds);
    // Read lazily: the answer usually fills from the first few ids.
    return thenTopSellers(context, ranked, new Set(seeds));
  },
});

export const forYouSource = defineList({
  path: '/products/for_you',
  summary:
    "Personal picks: the customer's own purchases (frequency and recency) blended with their bought-together and " +
    'content neighbours and recent popularity (session views vote for their neighbours), then best sellers',
  params: {
    shop_customer_id: positiveId('the storefront customer (this or uuid is required)'),
    uuid: sessionId('the session: its recent views count as affinity'),
    include_purchased: optionalFlag(
      "keep products the customer already bought (default: the shop's for_you_include_purchased setting, on)",
    ),
  },
  // A session's views move with every event, which no data version tracks; a customer's purchases do.
  cacheable: (params) => params.uuid === null,
  async candidates(context, params) {
    requireIdentity(params);
    const { catalog } = context;
    // What customers buy next is mostly what they bought before (§19): kept unless the shop or the request says no.
    const keep = params.include_purchased ?? catalog.shop.settings.for_you_include_purchased ?? true;
    const model = context.model()?.model;
    const affinities = model && context.customerId !== null ? affinitiesOf(model, context.customerId) : [];
    const views = (await context.viewedHandles()).slice(0, VIEWS_AS_AFFINITY).flatMap((h) => {
      const product = catalog.byHandle.get(h);
      return product ? [{ productId: product.id, weight: 1 }] : [];
    });
    // Purchases as they are now (the model may be a few minutes old), and as the model knows them.
    const fresh = context.customerId === null ? undefined : catalog.sales.purchasedByCustomer.get(context.customerId);
    const skip = keep
      ? new Set<number>()
      : new Set<number>([...(fresh?.keys() ?? []), ...affinities.map((a) => a.productId)]);
    // The content neighbours come with the model (built in the same worker task): no wait once it is in.
    const blend = forYouBlendOf(catalog.shop.settings);
    const content = model && blend.content > 0 ? ((await context.content()) ?? null) : null;
    return thenTopSellers(context, model ? forYou(model, affinities, views, skip, blend, content) : [], skip);
  },
});

export const viewedTogetherSource = defineList({
  path: '/products/viewed_together',
  summary: 'Products viewed in the same sessions as the input products (the last 30 days of views), then best sellers',
  params: inputs,
  candidates(context) {
    const seeds = inputsOf(context);
    if (seeds.length === 0)
      throw new MissingInputError(
        'shop_product_ids',
        'Missing required args. You must pass either shop_product_ids or shop_variant_ids.',
      );
    const { catalog } = context;
    const model = context.model()?.model;
    const handles = seeds.flatMap((id) => catalog.products.get(id)?.handle ?? []);
    const together = model ? viewedTogether(model, handles).flatMap((h) => catalog.byHandle.get(h)?.id ?? []) : [];
    return thenTopSellers(context, together, new Set(seeds));
  },
});

export const viewedRelatedSource = defineList({
  path: '/products/viewed-related',
  summary:
    'Complementary to what the visitor viewed: viewed_together, whose inputs are shop_product_ids or else the ' +
    "session's (or customer's) viewed products",
  params: {
    ...inputs,
    uuid: sessionId('the session whose views are the inputs when no ids are given'),
    shop_customer_id: positiveId('the customer whose views are the inputs when no ids are given'),
  },
  // Without ids the inputs are a session's views, which move with every event that no data version tracks.
  cacheable: (params) => params.shop_product_ids !== null || params.shop_variant_ids !== null,
  async candidates(context) {
    const { catalog } = context;
    const named = inputsOf(context);
    const seeds =
      named.length > 0
        ? named
        : (await context.viewedHandles()).slice(0, VIEWS_AS_AFFINITY).flatMap((h) => catalog.byHandle.get(h)?.id ?? []);
    const model = context.model()?.model;
    const handles = seeds.flatMap((id) => catalog.products.get(id)?.handle ?? []);
    const together =
      model && handles.length > 0
        ? viewedTogether(model, handles).flatMap((h) => catalog.byHandle.get(h)?.id ?? [])
        : [];
    return thenTopSellers(context, together, new Set(seeds));
  },
});
