import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ContentModel } from '../domain/models/content.js';
import type { BuildResult, ModelTask, SimilarResult } from './model-worker.js';

/** A worker that stays idle this long ends, and its database connection with it. */
const IDLE_MS = 60_000;

/**
 * The thread that builds models, started on first use. One thread: builds queue rather than
 * take both cores from the requests; its heap is capped so one huge shop cannot exhaust the process.
 */
export class ModelPool {
  private pool: Piscina | null = null;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly options: { maxHeapMb?: number } = {},
  ) {}

  /** Whether a worker can read the database: an in-memory SQLite database lives in this thread only. */
  get usable(): boolean {
    return !this.databaseUrl.startsWith('sqlite::memory:') && !this.closed;
  }

  private get workers(): Piscina {
    if (this.pool) return this.pool;
    const source = import.meta.url.endsWith('.ts');
    this.pool = new Piscina({
      filename: fileURLToPath(new URL(source ? './model-worker.ts' : './model-worker.js', import.meta.url)),
      // Run from the TypeScript sources (tests, `npm run dev`), the worker needs the same loader.
      ...(source ? { execArgv: ['--import', 'tsx'] } : { execArgv: [] }),
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: IDLE_MS,
      // A build allocates fast: a young generation of its own (V8 would size it from the server's small one).
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 1024, maxYoungGenerationSizeMb: 24 },
    });
    return this.pool;
  }

  /** Builds a shop's model unless its data still has `stamp`. */
  build(shopId: number, stamp: string | null, withContent = true): Promise<BuildResult> {
    return this.workers.run({
      kind: 'build',
      databaseUrl: this.databaseUrl,
      shopId,
      stamp,
      withContent,
    } satisfies ModelTask) as Promise<BuildResult>;
  }

  /** A shop's content neighbours alone, ahead of its first model (null: no such shop). */
  content(shopId: number): Promise<ContentModel | null> {
    return this.workers.run({
      kind: 'content',
      databaseUrl: this.databaseUrl,
      shopId,
    } satisfies ModelTask) as Promise<ContentModel | null>;
  }

  /** SAR neighbours of a product on the shop's orders as they are now. */
  similar(task: Omit<Extract<ModelTask, { kind: 'similar' }>, 'kind' | 'databaseUrl'>): Promise<SimilarResult> {
    return this.workers.run({
      kind: 'similar',
      databaseUrl: this.databaseUrl,
      ...task,
    } satisfies ModelTask) as Promise<SimilarResult>;
  }

  /** A round trip through the thread (measures its overhead). */
  ping(): Promise<unknown> {
    return this.workers.run({ kind: 'ping' } satisfies ModelTask);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
    this.pool = null;
  }
}
