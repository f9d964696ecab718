import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ContentModel } from '../domain/models/content.js';
import type { BuildResult, ModelTask, SimilarResult } from './model-worker.js';

/** A worker that stays idle this long ends, and its database connection with it. */
const IDLE_MS = 60_000;

/** A shop whose read model is estimated at no more than this may use the small shops' thread. */
export const SMALL_SHOP_BYTES = 12 * 1024 * 1024; // about 5,000 products (docs/scaling.md)

/** Which thread a shop's work runs in. */
export type ModelLane = 'shared' | 'small';

/**
 * The threads that build models, each started on first use. Every shop's work runs in the shared
 * thread, except a small shop's (a read model of a few thousand products) while the shared thread
 * is busy: that runs in a second thread. With one thread for all, a 100,000-product shop's build
 * held a small shop's first `similar_products` (its content neighbours, a task of milliseconds) for
 * a minute; with a second thread for every small shop, a node of small shops kept two isolates
 * where one did the work. One thread a lane: builds queue rather
 * than take both cores from the requests; each heap is capped so one huge shop cannot exhaust the
 * process.
 */
export class ModelPool {
  private readonly pools = new Map<ModelLane, Piscina>();
  /** Tasks sent to each lane and not yet settled. */
  private readonly inFlight = new Map<ModelLane, number>();
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

  /** The lane a shop's build or content neighbours would run in now. */
  laneOf(shopId: number): ModelLane {
    if (!this.inFlight.get('shared')) return 'shared';
    const bytes = this.options.shopBytes?.(shopId);
    return bytes !== undefined && bytes <= SMALL_SHOP_BYTES ? 'small' : 'shared';
  }

  private run<T>(lane: ModelLane, task: ModelTask): Promise<T> {
    this.inFlight.set(lane, (this.inFlight.get(lane) ?? 0) + 1);
    return (this.workers(lane).run(task) as Promise<T>).finally(() => {
      this.inFlight.set(lane, (this.inFlight.get(lane) ?? 1) - 1);
    });
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
    return this.run<BuildResult>(this.laneOf(shopId), {
      kind: 'build',
      databaseUrl: this.databaseUrl,
      shopId,
      stamp,
      withContent,
    });
  }

  /** A shop's content neighbours alone, ahead of its first model (null: no such shop). */
  content(shopId: number): Promise<ContentModel | null> {
    return this.run<ContentModel | null>(this.laneOf(shopId), {
      kind: 'content',
      databaseUrl: this.databaseUrl,
      shopId,
    });
  }

  /** SAR neighbours of a product on the shop's orders as they are now (all of its orders: the shared lane). */
  similar(task: Omit<Extract<ModelTask, { kind: 'similar' }>, 'kind' | 'databaseUrl'>): Promise<SimilarResult> {
    return this.run<SimilarResult>('shared', { kind: 'similar', databaseUrl: this.databaseUrl, ...task });
  }

  /** A round trip through a lane's thread (measures its overhead). */
  ping(lane: ModelLane = 'shared'): Promise<unknown> {
    return this.workers(lane).run({ kind: 'ping' } satisfies ModelTask);
  }

  async close(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy()));
  }
}
