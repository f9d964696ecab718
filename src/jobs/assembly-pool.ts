import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { PackedProducts } from '../indexes/product-serving.js';
import type { AssemblyTask } from './assembly-worker.js';

/** A thread idle this long ends, and its database connection with it. */
const IDLE_MS = 60_000;

/**
 * The thread that reads shops' products for their loads, started on first use. One thread: the
 * loads it serves are already two at a time (LOADS_AT_ONCE), and the reading is I/O and copying.
 */
export class AssemblyPool {
  private pool: Piscina | null = null;
  private closed = false;

  constructor(private readonly databaseUrl: string) {}

  /** Whether a thread can read the database: an in-memory SQLite database lives in this thread only. */
  get usable(): boolean {
    return !this.databaseUrl.startsWith('sqlite::memory:') && !this.closed;
  }

  private get workers(): Piscina {
    if (this.pool) return this.pool;
    const source = import.meta.url.endsWith('.ts');
    this.pool = new Piscina({
      filename: fileURLToPath(new URL(source ? './assembly-worker.ts' : './assembly-worker.js', import.meta.url)),
      // Run from the TypeScript sources (tests, `npm run dev`), the thread needs the same loader.
      ...(source ? { execArgv: ['--import', 'tsx'] } : { execArgv: [] }),
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: IDLE_MS,
      // It holds one page (a few MB) at a time: a small heap keeps the thread's share of the budget small.
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
    });
    return this.pool;
  }

  /** One page of a shop's products, read and packed in the thread. */
  readPage(shopId: number, page: { afterId: number; limit: number }): Promise<PackedProducts> {
    return this.workers.run({
      databaseUrl: this.databaseUrl,
      shopId,
      ...page,
    } satisfies AssemblyTask) as Promise<PackedProducts>;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
    this.pool = null;
  }
}
