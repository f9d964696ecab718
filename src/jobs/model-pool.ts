import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ContentModel } from '../domain/models/content.js';
import type { BuildResult, ModelTask, SimilarResult } from './model-worker.js';

/** A worker that stays idle this long ends, and its database connection with it. */
const IDLE_MS = 60_000;

/** A shop whose read model is estimated at no more than this is built in the small shops' thread. */
export const SMALL_SHOP_BYTES = 12 * 1024 * 1024; // about 5,000 products (docs/scaling.md)

/** Which thread a shop's work runs in. */
export type ModelLane = 'small' | 'large';

/**
 * The threads that build models, each started on first use: one for the shops whose read model is
 * small (a few thousand products), one for the others and for the shops whose size is not known.
 * With one thread for all, a 100,000-product shop's build held a small shop's first
 * `similar_products` (its content neighbours, a task of milliseconds) for a minute. One thread a
 * lane: builds queue rather than take both cores from the requests; each heap is capped so one huge
 * shop cannot exhaust the process.
 */
export class ModelPool {
  private readonly pools = new Map<ModelLane, Piscina>();
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly options: {
      maxHeapMb?: number;
      /** A shop's estimated read-model bytes, undefined when it is not in memory. */
      shopBytes?: (shopId: number) => number | undefined;
    } = {},
  ) {}

  /** Whether a worker can read the database: an in-memory SQLite database lives in this thread only. */
  get usable(): boolean {
    return !this.databaseUrl.startsWith('sqlite::memory:') && !this.closed;
  }

  /** The lane of a shop's builds and content neighbours. */
  laneOf(shopId: number): ModelLane {
    const bytes = this.options.shopBytes?.(shopId);
    return bytes !== undefined && bytes <= SMALL_SHOP_BYTES ? 'small' : 'large';
  }

  private workers(lane: ModelLane): Piscina {
    const running = this.pools.get(lane);
    if (running) return running;
    const source = import.meta.url.endsWith('.ts');
    const pool = new Piscina({
      filename: fileURLToPath(new URL(source ? './model-worker.ts' : './model-worker.js', import.meta.url)),
      // Run from the TypeScript sources (tests, `npm run dev`), the worker needs the same loader.
      ...(source ? { execArgv: ['--import', 'tsx'] } : { execArgv: [] }),
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: IDLE_MS,
      // A build allocates fast: a young generation of its own (V8 would size it from the server's small one).
      // The same cap in both lanes: a shop of few products may still have a million views to read.
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 1024, maxYoungGenerationSizeMb: 24 },
    });
    this.pools.set(lane, pool);
    return pool;
  }

  /** Builds a shop's model unless its data still has `stamp`. */
  build(shopId: number, stamp: string | null, withContent = true): Promise<BuildResult> {
    return this.workers(this.laneOf(shopId)).run({
      kind: 'build',
      databaseUrl: this.databaseUrl,
      shopId,
      stamp,
      withContent,
    } satisfies ModelTask) as Promise<BuildResult>;
  }

  /** A shop's content neighbours alone, ahead of its first model (null: no such shop). */
  content(shopId: number): Promise<ContentModel | null> {
    return this.workers(this.laneOf(shopId)).run({
      kind: 'content',
      databaseUrl: this.databaseUrl,
      shopId,
    } satisfies ModelTask) as Promise<ContentModel | null>;
  }

  /** SAR neighbours of a product on the shop's orders as they are now (all of its orders: the large lane). */
  similar(task: Omit<Extract<ModelTask, { kind: 'similar' }>, 'kind' | 'databaseUrl'>): Promise<SimilarResult> {
    return this.workers('large').run({
      kind: 'similar',
      databaseUrl: this.databaseUrl,
      ...task,
    } satisfies ModelTask) as Promise<SimilarResult>;
  }

  /** A round trip through a lane's thread (measures its overhead). */
  ping(lane: ModelLane = 'large'): Promise<unknown> {
    return this.workers(lane).run({ kind: 'ping' } satisfies ModelTask);
  }

  async close(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy()));
  }
}
