import type { TProperties } from '@sinclair/typebox';
import {
  commonParams,
  customerSigParam,
  keyParam,
  limitParam,
  listFilterParams,
} from '../../../domain/params/common.js';
import { params, type ParamsOf, type TParams } from '../../../domain/params/param.js';
import type { ContentModel } from '../../../domain/models/content.js';
import type { ShopModel } from '../../../indexes/model-index.js';
import type { IndexedProduct, ShopCatalog } from '../../../indexes/shop-catalog.js';
import type { Picked } from '../pipeline.js';

/** What runs a list: the catalog generation, the shop's model and a way to read a visitor's views. */
export interface ListBase {
  catalog: ShopCatalog;
  viewed(filter: { uuid: string | null; customerId: number | null }): Promise<readonly string[]>;
  /** The shop's learned model, or undefined until its first build is in (the model lists then fall back). */
  model(): ShopModel | undefined;
  /** The shop's content neighbours: the model's, or built ahead of its first build (waited on). */
  content(): Promise<ContentModel | undefined>;
}

/** What a list knows of its caller, over HTTP or when a ruleset's `endpoint` output runs it in-process. */
export interface ListContext {
  catalog: ShopCatalog;
  /** Input products (shop_product_ids): excluded from most lists, the seeds of recommended and similar. */
  productIds: readonly number[] | null;
  /** The products of shop_variant_ids (the inputs of recommended and viewed_together beside shop_product_ids). */
  variantProductIds: readonly number[];
  customerId: number | null;
  uuid: string | null;
  /** Handles the visitor viewed, most recent first (read lazily: it may need the database). */
  viewedHandles(): Promise<readonly string[]>;
  model(): ShopModel | undefined;
  content(): Promise<ContentModel | undefined>;
}

/** The parameters every list reads besides its own: the key, the common ones, the filters, `limit`. */
const shared = { ...keyParam, ...customerSigParam, ...commonParams, ...listFilterParams, ...limitParam() };
export type SharedListParams = ParamsOf<typeof shared>;

/** One endpoint of the list family, declared once for HTTP, ruleset `endpoint` outputs and /sources. */
export interface ListSource {
  readonly path: string;
  readonly summary: string;
  /** Every parameter the list reads: its own, then the shared ones (the route's query schema). */
  readonly schema: TParams<typeof shared>;
  /**
   * The parameters its own path requires (shown so in OpenAPI; the list asks for them when it runs). As a
   * ruleset's output the same list takes them from the endpoint's query, so `schema` keeps them optional.
   */
  readonly requiredOnPath: readonly string[];
  /**
   * Whether an answer may be cached: not when it moves with every event (a visitor's views), which
   * no data version tracks. A function decides per request (for_you is cacheable without a session).
   */
  cacheable(params: SharedListParams & Record<string, unknown>): boolean;
  candidates(
    context: ListContext,
    params: SharedListParams & Record<string, unknown>,
  ): Iterable<IndexedProduct> | Promise<Iterable<IndexedProduct>>;
  /** Extra `metadata` for the answer (purchased quantities). */
  metadata?(context: ListContext, picked: readonly Picked[]): Record<string, unknown>;
}

/** Declares a list with its own parameters; `limits` override the default 1-100, default 5. */
export function defineList<P extends TProperties>(definition: {
  path: string;
  summary: string;
  params: P;
  requiredOnPath?: readonly (keyof P & string)[];
  limits?: { fallback: number; max: number };
  cacheable?: boolean | ((params: SharedListParams & ParamsOf<P>) => boolean);
  candidates(
    context: ListContext,
    params: SharedListParams & ParamsOf<P>,
  ): Iterable<IndexedProduct> | Promise<Iterable<IndexedProduct>>;
  metadata?(context: ListContext, picked: readonly Picked[]): Record<string, unknown>;
}): ListSource {
  const { limits = { fallback: 5, max: 100 } } = definition;
  return {
    path: definition.path,
    summary: definition.summary,
    requiredOnPath: definition.requiredOnPath ?? [],
    cacheable: (typeof definition.cacheable === 'function'
      ? definition.cacheable
      : () => definition.cacheable !== false) as ListSource['cacheable'],
    schema: params({
      ...shared,
      ...definition.params,
      ...limitParam(limits.fallback, limits.max),
    }) as unknown as TParams<typeof shared>,
    candidates: definition.candidates as ListSource['candidates'],
    ...(definition.metadata ? { metadata: definition.metadata } : {}),
  };
}

/** Products by id, unknown ids skipped. */
export function byIds(catalog: ShopCatalog, ids: Iterable<number>): IndexedProduct[] {
  const out: IndexedProduct[] = [];
  for (const id of ids) {
    const product = catalog.products.get(id);
    if (product) out.push(product);
  }
  return out;
}

/** The same, lazily: a ranked list of thousands is read only as far as the answer needs. */
export function* eachById(
  catalog: ShopCatalog,
  ids: Iterable<number>,
  skip?: ReadonlySet<number>,
): Generator<IndexedProduct> {
  for (const id of ids) {
    if (skip?.has(id)) continue;
    const product = catalog.products.get(id);
    if (product) yield product;
  }
}
