/**
 * The model worker thread: reads a shop's orders and views from the database itself (so the
 * request thread never parses them), builds the model and hands its arrays back without copying.
 */
import { setPriority } from 'node:os';
import { Piscina } from 'piscina';
import {
  buildModel,
  purchaseIncidence,
  sortedIndexOf,
  type BuiltModel,
  type ModelLine,
  type ModelView,
} from '../domain/models/build.js';
import { itemsInUse, usersInUse } from '../domain/models/incidence.js';
import { sarNeighbours, type Basis, type SarSimilarity } from '../domain/models/sar.js';
import { buildContentModel, contentItemOf, type ContentItem, type ContentModel } from '../domain/models/content.js';
import { modelSettingsOf } from '../domain/models/settings.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/store.js';
import { getOrCreate } from '../domain/maps.js';
import { modelArrays } from '../domain/models/rank.js';

/** Views read per build at most (the newest): bounds a build's memory whatever the traffic. */
export const VIEWS_READ = 1_000_000;

export type ModelTask =
  | {
      kind: 'build';
      databaseUrl: string;
      shopId: number;
      /** The stamp of the model being served: unchanged data is not rebuilt. */
      stamp: string | null;
      /** Build the content neighbours too (false: they were just built ahead of a first model). */
      withContent: boolean;
    }
  | {
      kind: 'similar';
      databaseUrl: string;
      shopId: number;
      productId: number;
      similarity: SarSimilarity;
      threshold: number;
      basis: Basis;
      limit: number;
    }
  | { kind: 'content'; databaseUrl: string; shopId: number }
  | { kind: 'ping' };

export type BuildResult =
  | { unchanged: true; stamp: string }
  | { unchanged: false; stamp: string; builtAt: string; ms: number; model: BuiltModel; content: ContentModel }
  | { missing: true };

export interface SimilarResult {
  data: { product_id: number; score: number; co_occurrences: number }[];
  model: { built_at: string; users: number; products: number };
}

/**
 * The niceness of this thread: on Linux a thread has its own (setpriority on the calling thread), so a
 * build yields the cores to the request threads and takes what they leave (docs/benchmarks.md, "Model builds").
 */
export const WORKER_NICENESS = 10;
try {
  setPriority(WORKER_NICENESS);
} catch {
  /* not permitted here: builds run at the process's priority */
}

const stores = new Map<string, Promise<Store>>();

/** One connection per database for the worker's lifetime (the pool's idle timeout ends it). */
function storeFor(databaseUrl: string): Promise<Store> {
  return getOrCreate(stores, databaseUrl, () => openStore(databaseUrl, { migrate: false }));
}

/** What the model is built from: the shop's data version (orders, settings) and its event count. */
async function stampOf(
  store: Store,
  shopId: number,
): Promise<{ stamp: string; settings: ReturnType<typeof modelSettingsOf> } | null> {
  const shop = await store.getShopById(shopId);
  if (!shop) return null;
  const settings = modelSettingsOf(shop.settings);
  return { stamp: `${shop.data_version}.${await store.eventCount(shopId)}`, settings };
}

async function orderLines(store: Store, shopId: number): Promise<ModelLine[]> {
  return (await store.listOrderLines(shopId, 0)).map((l) => ({
    orderId: l.order_id,
    productId: l.product_id,
    customerId: l.customer_id,
    createdAt: l.created_at,
  }));
}

/** Every product's content features, read a page at a time so their documents never all live at once. */
async function contentItems(store: Store, shopId: number): Promise<ContentItem[]> {
  const items: ContentItem[] = [];
  for (let afterId = 0; ; ) {
    const page = await store.listProducts(shopId, { afterId, limit: 500 });
    for (const product of page) items.push(contentItemOf(product));
    if (page.length < 500) return items;
    afterId = page[page.length - 1]!.id;
  }
}

async function build(task: Extract<ModelTask, { kind: 'build' }>): Promise<unknown> {
  const started = performance.now();
  const store = await storeFor(task.databaseUrl);
  const current = await stampOf(store, task.shopId);
  if (!current) return { missing: true } satisfies BuildResult;
  if (current.stamp === task.stamp) return { unchanged: true, stamp: current.stamp } satisfies BuildResult;
  const [lines, views] = await Promise.all([
    orderLines(store, task.shopId),
    store.listRecentViews(task.shopId, VIEWS_READ),
  ]);
  const modelViews: ModelView[] = views.map((v) => ({
    visitor: v.uuid ?? `customer:${v.customer_id}`,
    handle: v.handle,
    createdAt: v.created_at,
  }));
  const model = buildModel(lines, modelViews, current.settings);
  const content = buildContentModel(task.withContent ? await contentItems(store, task.shopId) : []);
  const result: BuildResult = {
    unchanged: false,
    stamp: current.stamp,
    builtAt: new Date().toISOString(),
    ms: Math.round(performance.now() - started),
    model,
    content,
  };
  const buffers = [
    ...modelArrays(model),
    content.ids,
    content.lists.offsets,
    content.lists.items,
    content.lists.scores,
  ].map((a) => a.buffer);
  // Moved, not copied: the request thread receives the arrays as they are.
  return Piscina.move({
    [Piscina.transferableSymbol]: buffers,
    [Piscina.valueSymbol]: result,
  } as unknown as ArrayBuffer);
}

/** SAR neighbours of one product on all of the shop's orders as they are now (the inspection endpoint). */
async function similar(task: Extract<ModelTask, { kind: 'similar' }>): Promise<SimilarResult | null> {
  const store = await storeFor(task.databaseUrl);
  const lines = await orderLines(store, task.shopId);
  const products = Float64Array.from(new Set(lines.map((l) => l.productId))).sort();
  const { incidence } = purchaseIncidence(lines, task.basis, (id) => sortedIndexOf(products, id), products.length, 0);
  const item = sortedIndexOf(products, task.productId);
  const neighbours =
    item < 0
      ? []
      : sarNeighbours(incidence, item, {
          similarity: task.similarity,
          threshold: task.threshold,
          order: (j) => products[j]!,
        });
  return {
    data: neighbours
      .slice(0, task.limit)
      .map((n) => ({ product_id: products[n.item]!, score: n.score, co_occurrences: n.coOccurrences })),
    model: { built_at: new Date().toISOString(), users: usersInUse(incidence), products: itemsInUse(incidence) },
  };
}

/** A shop's content neighbours alone (products only), built ahead of its first model. */
async function contentOnly(task: Extract<ModelTask, { kind: 'content' }>): Promise<unknown> {
  const store = await storeFor(task.databaseUrl);
  if (!(await store.getShopById(task.shopId))) return null;
  const content = buildContentModel(await contentItems(store, task.shopId));
  const buffers = [content.ids, content.lists.offsets, content.lists.items, content.lists.scores].map((a) => a.buffer);
  return Piscina.move({
    [Piscina.transferableSymbol]: buffers,
    [Piscina.valueSymbol]: content,
  } as unknown as ArrayBuffer);
}

/** The worker's entry: one task at a time. */
export default async function run(task: ModelTask): Promise<unknown> {
  if (task.kind === 'ping') return 'pong';
  if (task.kind === 'content') return contentOnly(task);
  if (task.kind === 'similar') return similar(task);
  return build(task);
}
