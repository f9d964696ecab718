import { InvalidInputError, NotFoundError, UnavailableError } from '../domain/errors.js';
import { BASES, SAR_SIMILARITIES, type Basis, type SarSimilarity } from '../domain/models/sar.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { ModelIndex } from '../indexes/model-index.js';
import type { ModelPool } from '../jobs/model-pool.js';
import type { SimilarResult } from '../jobs/model-worker.js';
import { single, wholeNumberParam, type Query } from './params.js';

/** The inspection's parameters and their defaults (docs/lists.md, *Inspection*). */
export const SIMILAR_DEFAULTS = { similarity: 'jaccard' as SarSimilarity, basis: 'customer' as Basis, supportThreshold: 1, limit: 20 };

function choice<T extends string>(query: Query, name: string, allowed: readonly T[], fallback: T): T {
  const raw = single(query, name)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new InvalidInputError(name, `Parameter ${name} must be one of ${allowed.join(', ')}, got "${raw.slice(0, 40)}".`);
  return raw as T;
}

/** The model's raw material, for tools and the console: SAR similarities computed exactly, in the worker thread. */
export function createModelsService(deps: { pool: ModelPool; models: ModelIndex; catalog?: CatalogIndex }) {
  return {
    /** The model serving a shop: when it was built, from what, and its size (null until the first build is in; asking starts it). */
    status(shopId: number): ModelStatus | null {
      const current = deps.models.get(shopId);
      if (!current) return null;
      const { model } = current;
      return {
        built_at: current.builtAt, stamp: current.stamp, build_ms: current.buildMs, bytes: current.bytes,
        products: model.products.length, neighbours: model.neighbours.items.length, customers: model.customers.length,
        order_lines: model.stats.lines, orders: model.stats.orders, views: model.stats.views, viewed_products: model.handles.length,
      };
    },

    /** `GET /admin/v1/shops/{handle}/models/similar`: a product's SAR neighbours on all of the shop's orders as they are now. */
    async similar(shopId: number, query: Query): Promise<SimilarResult> {
      const productId = wholeNumberParam(query, 'product_id', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: 0 });
      if (productId === 0) throw new InvalidInputError('product_id', 'Missing required parameter product_id.');
      const similarity = choice(query, 'similarity', SAR_SIMILARITIES, SIMILAR_DEFAULTS.similarity);
      const basis = choice(query, 'basis', BASES, SIMILAR_DEFAULTS.basis);
      const threshold = wholeNumberParam(query, 'support_threshold', { min: 1, max: 1_000_000, fallback: SIMILAR_DEFAULTS.supportThreshold });
      const limit = wholeNumberParam(query, 'limit', { min: 1, max: 100, fallback: SIMILAR_DEFAULTS.limit });
      const catalog = deps.catalog?.get(shopId);
      if (catalog && !catalog.products.has(productId)) throw new NotFoundError(`Product ${productId} not found.`);
      if (!deps.pool.usable) throw new UnavailableError('Models need a database file or server: an in-memory SQLite database cannot be read by the model worker.');
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
}

export type ModelsService = ReturnType<typeof createModelsService>;
