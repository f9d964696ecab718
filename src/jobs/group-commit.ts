/**
 * Group commit: items are buffered and written in batches, one batch at a time; each submitter
 * is answered only when the batch holding its item has been committed (or has failed). Generic
 * over the item, so every durable intake (events, tracking) can share one writer or have its own.
 *
 * With `maxDelayMs: 0` an idle committer writes at the end of the current turn of the event loop:
 * every request parsed in that turn joins the batch, and none waits on a timer. Clients that wait
 * for their acknowledgement before sending again (beacons, the load test) are bound by that wait.
 */
export class GroupCommitter<T, R = void> {
  private queue: { item: T; resolve: (result: R | undefined) => void; reject: (error: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  private writing: Promise<void> | null = null;
  private closed = false;
  batches = 0;
  committed = 0;
  lastCommitMs = 0;

  constructor(
    /** Writes a batch; may answer each item (in the batch's order), which its submitter receives. */
    // biome-ignore lint/suspicious/noConfusingVoidType: a writer that answers nothing is an async function of void
    private readonly write: (batch: T[]) => Promise<readonly R[] | void>,
    private readonly options: { maxBatch: number; maxDelayMs: number },
  ) {}

  /** Items waiting for a commit. */
  get depth(): number {
    return this.queue.length;
  }

  /** Resolves once the item is durably written, with the write's answer for it; rejects if its batch failed. */
  submit(item: T): Promise<R | undefined> {
    if (this.closed) return Promise.reject(new Error('the event writer is closed'));
    return new Promise<R | undefined>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Writes everything submitted so far. */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.writing) {
      if (this.writing) await this.writing.catch(() => undefined);
      else await this.drain();
    }
  }

  /** Stops taking items and writes what is buffered (graceful shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    this.cancelTimer();
    await this.flush();
  }

  private cancelTimer(): void {
    if (this.timer === null) return;
    if (this.options.maxDelayMs > 0) clearTimeout(this.timer as NodeJS.Timeout);
    else clearImmediate(this.timer as NodeJS.Immediate);
    this.timer = null;
  }

  private schedule(): void {
    if (this.writing) return; // the running batch schedules the next one when it ends
    if (this.queue.length >= this.options.maxBatch) {
      this.cancelTimer();
      void this.drain();
    } else if (!this.timer) {
      const fire = () => {
        this.timer = null;
        void this.drain();
      };
      this.timer = this.options.maxDelayMs > 0 ? setTimeout(fire, this.options.maxDelayMs) : setImmediate(fire);
    }
  }

  private drain(): Promise<void> {
    if (this.writing || this.queue.length === 0) return this.writing ?? Promise.resolve();
    const batch = this.queue.splice(0, this.options.maxBatch);
    const started = performance.now();
    this.writing = this.write(batch.map((b) => b.item))
      .then(
        (answers) => {
          this.batches++;
          this.committed += batch.length;
          this.lastCommitMs = performance.now() - started;
          for (const [i, b] of batch.entries()) b.resolve(answers ? answers[i] : undefined);
        },
        (error: unknown) => {
          for (const b of batch) b.reject(error);
        },
      )
      .finally(() => {
        this.writing = null;
        // What arrived during the write has waited long enough: commit it at once.
        if (this.queue.length > 0 && !this.timer) void this.drain();
      });
    return this.writing;
  }
}
