import { NotFoundError, UnavailableError } from '../domain/errors.js';
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

/** The model's raw material, for tools and the console: SAR similarities computed exactly, in the worker thread. */
export function createModelsService(deps: { pool: ModelPool; models: ModelIndex; catalog?: CatalogIndex }) {
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
      const catalog = await deps.catalog?.ensure(shopId);
      if (catalog && !catalog.products.has(productId)) throw new NotFoundError(`Product ${productId} not found.`);
      if (!deps.pool.usable)
        throw new UnavailableError(
          'Models need a database file or server: an in-memory SQLite database cannot be read by the model worker.',
        );
      return deps.pool.similar({ shopId, productId, similarity, threshold, basis, limit });
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
