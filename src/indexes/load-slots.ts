/**
 * At most `size` tasks at a time, the rest in arrival order. A finished task hands its slot
 * straight to the next waiter, so a newcomer can never slip in between and exceed the size.
 */
export class LoadSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** Runs the task once a slot is free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
