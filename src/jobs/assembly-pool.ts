import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ReadPage } from '../indexes/product-serving.js';
import type { ServedPageReader } from '../indexes/product-pages.js';
import type { SalesColumns, SalesFold, SalesFolder } from '../indexes/sales.js';
import type { AssemblyTask } from './assembly-worker.js';

/**
 * The smallest memory budget given an assembly thread. Its isolate (about 20 MB) is an eighth of a
 * 160 MB node, started by the first shop of more than 1,250 products; read here instead, in pages
 * of 250 with a turn of the event loop between them, a 10,000-product shop takes about 82 ms of
 * the loop against 66 through the thread (docs/scaling.md).
 */
const ASSEMBLY_THREAD_MIN_BUDGET_MB = 256;

/** A thread idle this long ends, and its database connection with it. */
const IDLE_MS = 60_000;

/**
 * The thread that reads shops' products for their loads, and folds a shop's sales figures after its
 * orders change, started on first use. One thread: the loads it serves are already two at a time
 * (LOADS_AT_ONCE), and the reading is I/O and copying.
 *
 * A load never waits for the thread to start: starting it (an isolate, the store's modules, a
 * connection) took about 300 ms, thirty times a 1,000-product shop's load, and a node of small
 * shops starts it only when its first large shop comes, or again after the thread idled out. Until
 * the thread is ready, loads read their pages on the request thread, a turn between pages.
 */
/** The thread's heap: it holds one page (a few MB) at a time, so a small one keeps its share of the budget small. */
const THREAD_HEAP_MB = 64;

/** A thread for one fold too large for the first one's heap ends this soon after, its memory with it. */
const LARGE_IDLE_MS = 5_000;

export interface AssemblyHeaps {
  /** The thread's old generation, in MB. */
  threadMb: number;
  /** The old generation of a thread started for a fold that ran the first one out of memory, in MB. */
  largeMb: number;
}

export class AssemblyPool {
  private pool: Piscina | null = null;
  private large: Piscina | null = null;
  private starting: Promise<void> | null = null;
  private ready = false;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly heaps: AssemblyHeaps = { threadMb: THREAD_HEAP_MB, largeMb: 4 * THREAD_HEAP_MB },
  ) {}

  /** Whether a thread can read the database: an in-memory SQLite database lives in this thread only. */
  get usable(): boolean {
    return !this.databaseUrl.startsWith('sqlite::memory:') && !this.closed;
  }

  /** What loads and patches hand to the thread under this budget; nothing when it is too small. */
  workFor(memoryBudgetMb: number): { readPage: ServedPageReader; foldSales: SalesFolder } | undefined {
    if (!this.usable || memoryBudgetMb < ASSEMBLY_THREAD_MIN_BUDGET_MB) return undefined;
    return { readPage: this.readPage.bind(this), foldSales: this.foldSales.bind(this) };
  }

  /** Whether the thread was ever asked for (it may have idled out since). */
  get started(): boolean {
    return this.pool !== null;
  }

  private threads(heapMb: number, idleMs: number): Piscina {
    const source = import.meta.url.endsWith('.ts');
    const name = this.databaseUrl.startsWith('sqlite:') ? 'assembly-worker' : 'assembly-store-worker';
    return new Piscina({
      filename: fileURLToPath(new URL(`./${name}.${source ? 'ts' : 'js'}`, import.meta.url)),
      // Run from the TypeScript sources (tests, `npm run dev`), the thread needs the same loader.
      ...(source ? { execArgv: ['--import', 'tsx'] } : { execArgv: [] }),
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: idleMs,
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 8 },
    });
  }

  private get workers(): Piscina {
    if (this.pool) return this.pool;
    const pool = this.threads(this.heaps.threadMb, IDLE_MS);
    // The thread idled out (or failed): the next load that wants it starts it again, and does not wait.
    pool.on('workerDestroy', () => {
      this.ready = false;
      this.starting = null;
    });
    this.pool = pool;
    return pool;
  }

  /** Starts the thread, its store opened, unless it runs already; resolves once it can take pages. */
  warm(): Promise<void> {
    if (this.ready) return Promise.resolve();
    this.starting ??= (
      this.workers.run({ databaseUrl: this.databaseUrl, warm: true } satisfies AssemblyTask) as Promise<null>
    )
      .then(() => {
        this.ready = this.pool !== null;
      })
      .finally(() => {
        this.starting = null;
      });
    return this.starting;
  }

  /**
   * One page of a shop's products, read and packed in the thread; null while the thread is not
   * ready (it is started then), and the caller reads the page itself.
   */
  readPage(shopId: number, page: { afterId: number; limit: number; maxBytes: number }): Promise<ReadPage> | null {
    if (!this.ready) {
      this.warm().catch(() => undefined); // a thread that cannot start leaves the loads on this one
      return null;
    }
    const task = { databaseUrl: this.databaseUrl, shopId, ...page } satisfies AssemblyTask;
    return (this.workers.run(task) as Promise<ReadPage>).catch((error: unknown) => {
      if ((error as { code?: string }).code !== 'ERR_WORKER_OUT_OF_MEMORY' || this.closed) throw error;
      // A page larger than the thread's heap (a thousand products of 250 long tags each) is read once in
      // the thread with the larger heap, as sales figures are: the shop's load had failed with a 500.
      this.large ??= this.threads(this.heaps.largeMb, LARGE_IDLE_MS);
      return this.large.run(task) as Promise<ReadPage>;
    });
  }

  /**
   * A shop's sales figures, its sold lines read and folded in the thread; null while the thread is
   * not ready (it is started then), and the caller folds them itself.
   */
  foldSales(shopId: number, sales: SalesFold): Promise<SalesColumns> | null {
    if (!this.ready) {
      this.warm().catch(() => undefined);
      return null;
    }
    const task = { databaseUrl: this.databaseUrl, shopId, sales } satisfies AssemblyTask;
    return (this.workers.run(task) as Promise<SalesColumns>).catch((error: unknown) => {
      if ((error as { code?: string }).code !== 'ERR_WORKER_OUT_OF_MEMORY' || this.closed) throw error;
      // A shop with more sold lines than the thread's heap holds: folded once in a thread with a larger
      // heap, which ends soon after. Folded on the request thread instead, each of its order writes held
      // every shop's requests for as long (half a second and more at 300,000 lines).
      this.large ??= this.threads(this.heaps.largeMb, LARGE_IDLE_MS);
      return this.large.run(task) as Promise<SalesColumns>;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.ready = false;
    await Promise.all([this.pool?.destroy(), this.large?.destroy()]);
    this.pool = null;
    this.large = null;
  }
}
