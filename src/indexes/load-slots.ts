/**
 * Tasks one at a time in arrival order, with more slots (up to `size`) only for long ones: the
 * next task starts beside those running once every one of them has run for `patienceMs`.
 *
 * Loads are CPU work on the request thread, and each gives way to the resident shops' requests
 * between its parts. Run side by side, two small loads would both finish at about the time the
 * second would have in turn (each turn carrying a slice of both); one after another, the first is
 * done in half that. A large shop's load takes a hundred milliseconds or more: the small loads
 * arriving meanwhile get the second slot instead of waiting for all of it.
 */
export class LoadSlots {
  /** Running tasks: their start and the timer that lets a waiter in beside them once they are long. */
  private readonly running = new Map<number, { startedAt: number; timer: NodeJS.Timeout }>();
  private readonly waiting: ((id: number) => void)[] = [];
  private nextId = 0;

  constructor(
    private readonly size: number,
    private readonly patienceMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Runs the task once a slot is free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    const id = this.free() ? this.start() : await new Promise<number>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      clearTimeout(this.running.get(id)!.timer);
      this.running.delete(id);
      this.admit();
    }
  }

  /** Tasks running now (for tests and metrics). */
  get active(): number {
    return this.running.size;
  }

  private free(): boolean {
    if (this.running.size === 0) return true;
    if (this.running.size >= this.size) return false;
    const now = this.now();
    for (const { startedAt } of this.running.values()) if (now - startedAt < this.patienceMs) return false;
    return true;
  }

  /** Takes a slot: the caller's or a waiter's, handed over directly so no newcomer slips in between. */
  private start(): number {
    const id = this.nextId++;
    // A millisecond late: a timer may fire a fraction early by the clock `now` reads.
    const timer = setTimeout(() => this.admit(), this.patienceMs + 1);
    timer.unref();
    this.running.set(id, { startedAt: this.now(), timer });
    return id;
  }

  private admit(): void {
    while (this.waiting.length > 0 && this.free()) this.waiting.shift()!(this.start());
  }
}
