import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

const require = createRequire(import.meta.url);
const DRIVER = require.resolve('better-sqlite3');

/** SQLite's own threshold, kept while no thread checkpoints: a commit past it checkpoints by itself. */
const SQLITE_AUTOCHECKPOINT = 1000;
/** With the thread running, a commit checkpoints by itself only should the thread fall behind this far. */
const WORKER_AUTOCHECKPOINT = 10_000;

export interface CheckpointOptions {
  /** How often the thread checkpoints (ms). */
  intervalMs?: number;
  /** The thread ends once this long (to twice this long) has passed without a write (ms). */
  quietMs?: number;
}

/**
 * Moves WAL checkpoints off the event loop. By default SQLite checkpoints inside the commit that
 * fills the WAL past 1,000 pages: that commit copies the pages into the database file and syncs
 * it while the event loop waits (writing event batches alone, checkpoints took a third of the
 * time and set the slowest commits at 30-100 ms). A worker thread checkpoints every 100 ms
 * instead; the connection still checkpoints itself past 10,000 pages, should the worker fall behind.
 *
 * The thread is a V8 isolate of its own (9–10 MB of RSS), which a node that only reads never
 * needs: it starts with the first statement that changes rows and ends once a minute or two pass
 * without one, with a last checkpoint; the next write starts another. While none runs, the connection keeps SQLite's
 * own 1,000 pages, so the WAL stays as bounded as it would be without any thread.
 */
export class Checkpoints {
  private worker: Worker | null = null;
  private quiet: NodeJS.Timeout | null = null;
  /** A write since the quiet timer last looked (or since a stop was asked: then another thread starts). */
  private wrote = false;
  /** The thread was asked to end and has not exited yet. */
  private stopping = false;
  private failed = false;
  private readonly exited: (() => void)[] = [];
  /** Large writes under way, or committed and not yet passed over by the thread: no commit checkpoints. */
  private lifted = 0;
  /** Large writes waiting for the thread's pass over the WAL, in the order they asked. */
  private readonly passes: (() => void)[] = [];

  constructor(
    private readonly database: SQLite.Database,
    private readonly file: string,
    private readonly options: CheckpointOptions = {},
  ) {}

  /** Called after each statement that changed rows: two field accesses unless no thread runs. */
  written(): void {
    this.wrote = true;
    if (this.worker === null && !this.failed) this.start();
  }

  /**
   * Runs a large write (an import: one transaction of tens of thousands of WAL pages) so that no
   * commit copies it into the database file on this thread. Past the 10,000 pages, its own commit
   * did, while the event loop waited: 400 ms for 20,000 products. Without that bound, under a steady
   * stream of small commits the WAL grew to 1 GB, the thread's passes never finding it whole. So the
   * bound is lifted for the write and until the thread has passed over the WAL after it; a commit
   * past it then copies only what the pass left. Without a thread, the commit after it checkpoints.
   */
  async largeWrite<T>(write: () => Promise<T>): Promise<T> {
    this.lifted++;
    this.guard();
    try {
      return await write();
    } finally {
      void this.pass().then(() => {
        this.lifted--;
        this.guard();
      });
    }
  }

  /**
   * An erasure committed: the WAL still holds the frames written before it, the erased rows among them,
   * until checkpoints happen to write over them (and the file keeps its length). The thread copies the
   * whole WAL into the database file and truncates it to nothing, trying each tick until no reader holds
   * an older snapshot; resolves once it has (at once when no thread runs: the commit's own checkpoint
   * then rewrites the WAL from its start).
   */
  forgetOldFrames(): Promise<void> {
    if (this.failed) {
      // No thread can run: this connection truncates it (a WAL of at most SQLite's own 1,000 pages).
      this.truncateHere();
      return Promise.resolve();
    }
    const worker = this.worker;
    if (worker === null || this.stopping) {
      // The next thread owes it: one starts with the next write, which the erasure's own writes are.
      this.owed = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.truncations.push(resolve);
      worker.postMessage('truncate');
    });
  }

  /** Erasures waiting for the thread to truncate the WAL. */
  private readonly truncations: (() => void)[] = [];
  /** An erasure came while no thread could take its truncation: the next one does. */
  private owed = false;

  private truncateHere(): void {
    if (!this.database.open) return;
    try {
      this.database.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      /* a reader holds an older snapshot: the WAL is rewritten from its start by the next checkpoints */
    }
  }

  /** Ends the thread now, after a last checkpoint (start-up's writes are done); resolves once it exited. */
  settle(): Promise<void> {
    if (this.worker === null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.exited.push(resolve));
    // Whoever waits for it keeps the process alive meanwhile: unref'd, a start-up would just end.
    this.worker.ref();
    if (!this.stopping) this.stop();
    return exited;
  }

  /** The database is closing: the thread ends at once, its connection with it. */
  close(): void {
    if (this.quiet) clearInterval(this.quiet);
    this.quiet = null;
    this.failed = true;
    void this.worker?.terminate();
  }

  private start(): void {
    let worker: Worker;
    try {
      worker = new Worker(CHECKPOINTER, {
        eval: true,
        workerData: { driver: DRIVER, file: this.file, intervalMs: this.options.intervalMs ?? 100 },
      });
    } catch {
      this.failed = true;
      return;
    }
    this.worker = worker;
    this.guard();
    worker.unref();
    if (this.owed) {
      this.owed = false;
      worker.postMessage('truncate');
    }
    worker.on('message', (message) => {
      if (message === 'passed') this.passes.shift()?.();
      if (message === 'truncated') for (const resolve of this.truncations.splice(0)) resolve();
    });
    // A worker that cannot run leaves the checkpoints to this connection, as SQLite does by default.
    worker.on('error', () => {
      this.failed = true;
    });
    worker.on('exit', () => this.exit(worker));
    const quietMs = this.options.quietMs ?? 60_000;
    this.quiet = setInterval(() => {
      if (this.wrote) this.wrote = false;
      else this.stop();
    }, quietMs);
    this.quiet.unref();
  }

  /** Asks the thread to checkpoint once more and end (a message: never ended in the middle of a checkpoint). */
  private stop(): void {
    if (this.quiet) clearInterval(this.quiet);
    this.quiet = null;
    // A write from here on starts another thread once this one has exited.
    this.wrote = false;
    this.stopping = true;
    this.worker?.postMessage('stop');
  }

  private exit(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.stopping = false;
    if (this.quiet) clearInterval(this.quiet);
    this.quiet = null;
    for (const resolve of this.passes.splice(0)) resolve();
    for (const resolve of this.truncations.splice(0)) resolve();
    if (this.wrote && !this.failed) this.start();
    else this.guard();
    for (const resolve of this.exited.splice(0)) resolve();
  }

  /** The thread's next pass over the WAL, asked for now; at once when no thread runs or it is ending. */
  private pass(): Promise<void> {
    const worker = this.worker;
    if (worker === null || this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      this.passes.push(resolve);
      worker.postMessage('pass');
    });
  }

  /** The pages past which a commit checkpoints by itself, for what runs now. */
  private guard(): void {
    if (this.lifted > 0) this.autocheckpoint(0);
    else this.autocheckpoint(this.worker === null ? SQLITE_AUTOCHECKPOINT : WORKER_AUTOCHECKPOINT);
  }

  /**
   * Sets the pages past which a commit checkpoints by itself. The connection may be closed, or
   * (never in this code base) in the middle of iterating a statement, which refuses it: the setting
   * then stays as it was, a larger WAL at worst until the next start or stop sets it.
   */
  private autocheckpoint(pages: number): void {
    if (!this.database.open) return;
    try {
      this.database.pragma(`wal_autocheckpoint = ${pages}`);
    } catch {
      /* kept as it was */
    }
  }
}

/**
 * The checkpointing thread (plain JavaScript: it runs the same from the sources and the build).
 * PASSIVE copies what it can without waiting for, or blocking, the writer and the readers; a
 * checkpoint that meets a busy lock is tried again on the next tick. Asked to stop, it checkpoints
 * until the whole WAL is in the database file (a reader of an older snapshot holds frames back),
 * for at most 50 ticks, then closes its connection and lets its event loop end: the last commits
 * are not left unsynced while no thread runs.
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const database = new SQLite(workerData.file);
database.pragma('busy_timeout = 0');
const checkpoint = () => {
  try {
    const [done] = database.pragma('wal_checkpoint(PASSIVE)');
    return done.busy === 0 && done.checkpointed === done.log;
  } catch {
    return false;
  }
};
let truncate = false;
// Only once a passive pass has copied the whole WAL: what TRUNCATE then holds the write lock for is the
// reset alone, not the copy (a write meanwhile that does not wait, a load's snapshot, is skipped).
const truncated = () => {
  if (!checkpoint()) return false;
  try {
    const [done] = database.pragma('wal_checkpoint(TRUNCATE)');
    return done.busy === 0;
  } catch {
    return false;
  }
};
const tick = () => {
  if (truncate && truncated()) {
    truncate = false;
    parentPort.postMessage('truncated');
  } else checkpoint();
};
const timer = setInterval(tick, workerData.intervalMs);
let ending = false;
parentPort.on('message', (message) => {
  if (message === 'pass') {
    checkpoint();
    parentPort.postMessage('passed');
    return;
  }
  if (message === 'truncate') {
    truncate = true;
    return;
  }
  if (ending) return;
  ending = true;
  clearInterval(timer);
  let tries = 0;
  const finish = () => {
    const done = truncate ? truncated() : checkpoint();
    if (!done && ++tries < 50) return setTimeout(finish, workerData.intervalMs);
    database.close();
    parentPort.close();
  };
  finish();
});
`;
