/**
 * Runs each shop's platform work off the request path, one job at a time per shop (the platform
 * runs one bulk query per shop at a time), shops side by side.
 */
export class PlatformRunner {
  private readonly chains = new Map<number, Promise<void>>();
  private closed = false;

  constructor(
    private readonly work: (shopId: number) => Promise<void>,
    private readonly onError: (error: unknown, shopId: number) => void,
  ) {}

  /** Queues the shop's work after what is already queued for it. */
  schedule(shopId: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    const previous = this.chains.get(shopId) ?? Promise.resolve();
    const next = previous
      .then(() => (this.closed ? undefined : this.work(shopId)))
      .catch((error: unknown) => this.onError(error, shopId))
      .finally(() => {
        if (this.chains.get(shopId) === next) this.chains.delete(shopId);
      });
    this.chains.set(shopId, next);
    return next;
  }

  /** Resolves when every queued job has ended. */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  /** Whether the runner is closing: running jobs end at their next step (a bulk export's next poll). */
  get closing(): boolean {
    return this.closed;
  }

  /** Starts nothing more; running jobs end at their next step. */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }
}
