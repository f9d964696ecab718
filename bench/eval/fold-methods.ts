/**
 * Every list the folds score: the model's lists as the service
 * ranks them, and the baselines, on a fold's training orders.
 */
import {
  buildModel,
  type BuiltModel,
  type ModelLine,
  POPULAR_KEPT,
  sortedIndexOf,
} from '../../src/domain/models/build.js';
import { buildContentModel, type ContentModel } from '../../src/domain/models/content.js';
import { titleWords } from '../../src/domain/ranking/similarity.js';
import { affinitiesOf, forYou, recommendedFor, type ForYouBlend, type Seed } from '../../src/domain/models/rank.js';
import { DEFAULT_MODEL_SETTINGS, type ModelSettings } from '../../src/domain/models/settings.js';
import { DEFAULT_TRENDING, rankTopSellers, scoreTrending, type Sale } from '../../src/domain/ranking/trending.js';
import { fill } from './baselines.js';
import type { Fold } from './folds.js';
import {
  COOCCURRENCE,
  Ease,
  ItemSpace,
  ITEM_KNN,
  itemScores,
  rankScores,
  rp3beta,
  type PairRule,
} from './item-models.js';
import { K } from './metrics.js';
import { DAY_MS, type Invoice, type RetailProduct } from './retail.js';
import { getOrCreate } from '../../src/domain/maps.js';

/** EASE is a dense inverse: kept to the most bought products on two cores. */
export const EASE_TOP = 1000;
export const EASE_LAMBDA = 200;
export const RP3_GRID: readonly [alpha: number, beta: number][] = [
  [1, 0.5],
  [1, 0.25],
  [0.5, 0.5],
];

/** What a fold's lists are built from. */
export class FoldContext {
  readonly reference: number;
  readonly topSellers: number[];
  readonly trending: number[];
  /** The trending endpoint's scores at the fold's cut, each product sold in its window (for_you's other popularity). */
  private readonly trendingScores: { ranked: number[]; scores: Map<number, number> };
  readonly baskets: ItemSpace;
  readonly customers: ItemSpace;
  /** Each customer's products: units, orders holding them, and the newest of those orders. */
  readonly history = new Map<number, Map<number, { units: number; orders: number; last: number }>>();
  private readonly models = new Map<string, BuiltModel>();
  private readonly trendingModels = new Map<BuiltModel, BuiltModel>();

  constructor(
    readonly fold: Fold,
    /** The log's content neighbours (the catalogue does not change between folds). */
    readonly content: ContentModel | null = null,
  ) {
    const { train } = fold;
    this.reference = train.reduce((max, o) => Math.max(max, o.at), 0);
    const sales: Sale[] = train.flatMap((o) =>
      [...o.items].map(([productId, item]) => ({ productId, quantity: item.quantity, at: o.at, orderId: o.id })),
    );
    this.topSellers = rankTopSellers(sales, this.reference - 90 * DAY_MS, this.reference).ranked.slice(0, 3 * K);
    const trending = scoreTrending(sales, this.reference, DEFAULT_TRENDING);
    this.trending = trending.ranked.slice(0, 3 * K);
    this.trendingScores = trending;
    this.baskets = new ItemSpace(train.map((o) => [...o.items.keys()]));
    const byCustomer = new Map<number, Set<number>>();
    for (const order of train) {
      if (order.customer === null) continue;
      const mine = getOrCreate(this.history, order.customer, () => new Map());
      const set = getOrCreate(byCustomer, order.customer, () => new Set());
      for (const [id, item] of order.items) {
        set.add(id);
        const seen = mine.get(id) ?? { units: 0, orders: 0, last: 0 };
        mine.set(id, {
          units: seen.units + item.quantity,
          orders: seen.orders + 1,
          last: Math.max(seen.last, order.at),
        });
      }
    }
    this.customers = new ItemSpace([...byCustomer.values()].map((s) => [...s]));
  }

  get catalogue(): number {
    return this.baskets.ids.length;
  }

  /** The shop's model on the fold's training orders (cached per settings). */
  model(settings: ModelSettings = DEFAULT_MODEL_SETTINGS): BuiltModel {
    return getOrCreate(this.models, JSON.stringify(settings), () =>
      buildModel(modelLines(this.fold.train), [], settings),
    );
  }

  /**
   * The model with its popularity (and popular candidates) taken from the trending endpoint's
   * scores instead of its own (every order line, halved every 14 days, no window).
   */
  withTrendingPopularity(model: BuiltModel): BuiltModel {
    return getOrCreate(this.trendingModels, model, () => {
      const popularity = new Float32Array(model.products.length);
      const popular: number[] = [];
      for (const id of this.trendingScores.ranked) {
        const item = sortedIndexOf(model.products, id);
        if (item < 0) continue;
        popularity[item] = this.trendingScores.scores.get(id)!;
        if (popular.length < POPULAR_KEPT) popular.push(item);
      }
      return { ...model, popularity, popular: Int32Array.from(popular) };
    });
  }

  /** A customer's products by units bought, most first (ties by id). */
  purchasedByUnits(customer: number): number[] {
    return [...(this.history.get(customer) ?? [])]
      .sort((a, b) => b[1].units - a[1].units || a[0] - b[0])
      .map(([id]) => id);
  }
}

export type Lists = number[][];

/** The content neighbours the service builds for a log's catalogue: title words, the tag, the price band. */
export function logContent(products: readonly RetailProduct[]): ContentModel {
  return buildContentModel(
    products.map((p) => ({
      id: p.id,
      productType: '',
      vendor: '',
      tags: p.tag ? [p.tag] : [],
      titleWords: titleWords(p.title),
      priceBand: Math.log2(Math.max(Number(p.price), 0.01)),
      listable: true,
    })),
  );
}

/** The model's order lines of a set of invoices. */
export function modelLines(invoices: readonly Invoice[]): ModelLine[] {
  return invoices.flatMap((o) =>
    [...o.items.keys()].map((productId) => ({ orderId: o.id, productId, customerId: o.customer, createdAt: o.at })),
  );
}

/** "Previous purchases (most bought first), then trending": a list any merchant can build in a ruleset. */
export const purchasedThenTrending = (ctx: FoldContext): Lists =>
  ctx.fold.customers.map((c) => fill(ctx.purchasedByUnits(c.customer).slice(0, K), ctx.trending, K));

/** Trending for everyone. */
export const trendingForAll = (ctx: FoldContext): Lists => ctx.fold.customers.map(() => ctx.trending.slice(0, K));

/**
 * for_you as the service ranks it (model defaults; purchases
 * kept, or left out with include_purchased=no), then top sellers.
 */
export function serviceForYou(ctx: FoldContext, purchases: 'kept' | 'left out' = 'kept'): Lists {
  const model = ctx.model();
  return ctx.fold.customers.map((c) => {
    const skip = new Set(purchases === 'kept' ? [] : ctx.history.get(c.customer)?.keys());
    const ranked = forYou(model, affinitiesOf(model, c.customer), [], skip, undefined, ctx.content);
    return fill(ranked.slice(0, K), ctx.topSellers, K, skip);
  });
}

/**
 * A candidate for_you: seeds from the customer's own history
 * (frequency × recency), blended by the model, then top sellers.
 */
export interface ForYouCandidate {
  key: string;
  halfLifeDays: number;
  /** What a purchase counts: each order holding the product, or its units. */
  counts: 'orders' | 'units';
  blend: ForYouBlend;
  /**
   * Where the blend's popularity comes from: the model's own (the service's), or the trending
   * endpoint's scores, the list the baseline fills with (then the list is filled with trending too).
   */
  popularity?: 'model' | 'trending';
}

export function candidateForYou(ctx: FoldContext, candidate: ForYouCandidate): Lists {
  const trending = candidate.popularity === 'trending';
  const model = trending ? ctx.withTrendingPopularity(ctx.model()) : ctx.model();
  const rest = trending ? ctx.trending : ctx.topSellers;
  return ctx.fold.customers.map((c) => {
    const seeds = ownSeeds(ctx, c.customer, candidate);
    return fill(forYou(model, seeds, [], new Set(), candidate.blend, ctx.content).slice(0, K), rest, K);
  });
}

function ownSeeds(ctx: FoldContext, customer: number, candidate: ForYouCandidate): Seed[] {
  const decay = (last: number) =>
    Number.isFinite(candidate.halfLifeDays) ? 2 ** (-(ctx.reference - last) / DAY_MS / candidate.halfLifeDays) : 1;
  return [...(ctx.history.get(customer) ?? [])]
    .map(([productId, h]) => ({
      productId,
      weight: (candidate.counts === 'units' ? h.units : h.orders) * decay(h.last),
    }))
    .sort((a, b) => b.weight - a.weight || a.productId - b.productId)
    .slice(0, 100);
}

/** A linear item model over the customer's products (binary), their own purchases boosted by `boost`, then trending. */
export function personalItemModel(
  ctx: FoldContext,
  score: (inputs: { id: number; weight: number }[]) => Map<number, number>,
  boost: number,
): Lists {
  return ctx.fold.customers.map((c) => {
    const inputs = [...(ctx.history.get(c.customer)?.keys() ?? [])].map((id) => ({ id, weight: 1 }));
    const scores = score(inputs);
    let best = 0;
    for (const s of scores.values()) best = Math.max(best, s);
    for (const { id } of inputs) scores.set(id, (scores.get(id) ?? 0) + boost * (best || 1));
    return fill(rankScores(scores).slice(0, K), ctx.trending, K);
  });
}

export const easeFor = (space: ItemSpace) => new Ease(space, EASE_TOP, EASE_LAMBDA);

/** Basket completion by an item-to-item rule, then top sellers. */
export function basketLists(ctx: FoldContext, rule: PairRule): Lists {
  return ctx.fold.baskets.map((b) =>
    fill(
      rankScores(itemScores(ctx.baskets, rule, [{ id: b.input, weight: 1 }])).slice(0, K),
      ctx.topSellers,
      K,
      new Set([b.input]),
    ),
  );
}

export function basketEase(ctx: FoldContext, ease: Ease): Lists {
  return ctx.fold.baskets.map((b) => {
    const scores = ease.scores([{ id: b.input, weight: 1 }]);
    scores.delete(b.input);
    return fill(
      rankScores(scores)
        .filter((id) => scores.get(id)! > 0)
        .slice(0, K),
      ctx.topSellers,
      K,
      new Set([b.input]),
    );
  });
}

/** recommended as the service ranks it (the model's neighbours, then top sellers). */
export function serviceRecommended(ctx: FoldContext, settings = DEFAULT_MODEL_SETTINGS): Lists {
  const model = ctx.model(settings);
  return ctx.fold.baskets.map((b) =>
    fill(recommendedFor(model, [b.input]).slice(0, K), ctx.topSellers, K, new Set([b.input])),
  );
}

export const BASKET_RULES: PairRule[] = [COOCCURRENCE, ITEM_KNN, ...RP3_GRID.map(([a, b]) => rp3beta(a, b))];
