import { NotFoundError, TooManyRequestsError, UnavailableError } from '../domain/errors.js';
import type { Basis, SarSimilarity } from '../domain/models/sar.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { ModelIndex } from '../indexes/model-index.js';
import type { ModelPool } from '../jobs/model-pool.js';
import type { SimilarResult } from '../jobs/model-worker.js';

/** The inspection's parameters and their defaults (docs/lists.md, *Inspection*). */
export const SIMILAR_DEFAULTS = {
  similarity: 'jaccard' as SarSimilarity,
  basis: 'customer' as Basis,
  supportThreshold: 1,
  limit: 20,
};

/** Similarities computed at once in the node (each shop one at a time). */
export const SIMILAR_AT_ONCE = 2;

const busy = (why: string) =>
  new TooManyRequestsError(`Too many similarity requests at once: ${why}. Retry after 5 seconds.`, 5);

/** The model's raw material, for tools and the console: SAR similarities computed exactly, in the worker thread. */
export function createModelsService(deps: { pool: ModelPool; models: ModelIndex; catalog?: CatalogIndex }) {
  const computing = new Set<number>();
  return {
    /**
     * The model serving a shop: when it was built, from what, and
     * its size (null until the first build is in; asking starts it).
     */
    status(shopId: number): ModelStatus | null {
      const current = deps.models.get(shopId);
      if (!current) return null;
      const { model } = current;
      return {
        built_at: current.builtAt,
        stamp: current.stamp,
        build_ms: current.buildMs,
        bytes: current.bytes,
        products: model.products.length,
        neighbours: model.neighbours.items.length,
        customers: model.customers.length,
        order_lines: model.stats.lines,
        orders: model.stats.orders,
        views: model.stats.views,
        viewed_products: model.handles.length,
        rebuild_pending: deps.models.pending(shopId),
      };
    },

    /**
     * `GET /admin/v1/shops/{handle}/models/similar`: a product's
     * SAR neighbours on all of the shop's orders as they are now.
     */
    async similar(
      shopId: number,
      ask: { productId: number; similarity: SarSimilarity; threshold: number; basis: Basis; limit: number },
    ): Promise<SimilarResult> {
      const { productId, similarity, threshold, basis, limit } = ask;
      // One at a time a shop, and a few in the node: each reads all of the shop's orders in the thread that
      // builds every shop's models, and sixty asked at once held another shop's rebuild for a minute.
      if (computing.has(shopId)) throw busy('one of this shop is being computed');
      if (computing.size >= SIMILAR_AT_ONCE) throw busy('the node is computing as many as it takes at once');
      computing.add(shopId);
      try {
        const catalog = await deps.catalog?.ensure(shopId);
        if (catalog && !catalog.products.has(productId)) throw new NotFoundError(`Product ${productId} not found.`);
        if (!deps.pool.usable)
          throw new UnavailableError(
            'Models need a database file or server: an in-memory SQLite database cannot be read by the model worker.',
          );
        return await deps.pool.similar({ shopId, productId, similarity, threshold, basis, limit });
      } finally {
        computing.delete(shopId);
      }
    },
  };
}

export interface ModelStatus {
  built_at: string;
  stamp: string;
  build_ms: number;
  bytes: number;
  products: number;
  neighbours: number;
  customers: number;
  order_lines: number;
  orders: number;
  views: number;
  viewed_products: number;
  rebuild_pending: boolean;
}

export type ModelsService = ReturnType<typeof createModelsService>;
