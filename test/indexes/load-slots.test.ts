import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoadSlots } from '../../src/indexes/load-slots.js';

/** A task that runs until the test ends it; `started` tells whether its slot was given. */
function task(log: string[], name: string) {
  let end: () => void = () => {};
  const state = { started: false, end: () => end() };
  const run = () => {
    state.started = true;
    log.push(name);
    return new Promise<void>((resolve) => {
      end = resolve;
    });
  };
  return { state, run };
}

describe('load slots', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const slots = () => new LoadSlots(2, 25, () => Date.now());

  it('runs short tasks one at a time, in arrival order', async () => {
    const s = slots();
    const log: string[] = [];
    const [a, b, c] = [task(log, 'a'), task(log, 'b'), task(log, 'c')];
    const done = [s.run(a.run), s.run(b.run), s.run(c.run)];
    await vi.advanceTimersByTimeAsync(10);
    expect(log).toEqual(['a']);
    a.state.end();
    await vi.advanceTimersByTimeAsync(10);
    expect(log).toEqual(['a', 'b']);
    expect(s.active).toBe(1);
    b.state.end();
    await vi.advanceTimersByTimeAsync(0);
    c.state.end();
    await Promise.all(done);
    expect(log).toEqual(['a', 'b', 'c']);
    expect(s.active).toBe(0);
  });

  it('starts the next task beside one that has run past its patience, never more than the size', async () => {
    const s = slots();
    const log: string[] = [];
    const [long, b, c] = [task(log, 'long'), task(log, 'b'), task(log, 'c')];
    const done = [s.run(long.run), s.run(b.run), s.run(c.run)];
    await vi.advanceTimersByTimeAsync(24);
    expect(log).toEqual(['long']);
    await vi.advanceTimersByTimeAsync(5);
    expect(log).toEqual(['long', 'b']);
    // Two running: c waits, however long both take.
    await vi.advanceTimersByTimeAsync(100);
    expect(log).toEqual(['long', 'b']);
    expect(s.active).toBe(2);
    b.state.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['long', 'b', 'c']);
    long.state.end();
    c.state.end();
    await Promise.all(done);
  });

  it('leaves a waiter queued beside a short task when the long one ends', async () => {
    const s = slots();
    const log: string[] = [];
    const [long, b, c] = [task(log, 'long'), task(log, 'b'), task(log, 'c')];
    const done = [s.run(long.run), s.run(b.run)];
    await vi.advanceTimersByTimeAsync(30);
    expect(log).toEqual(['long', 'b']);
    done.push(s.run(c.run));
    long.state.end();
    await vi.advanceTimersByTimeAsync(5);
    // b has run 5 ms: short, so c waits for it (or for it to become long).
    expect(log).toEqual(['long', 'b']);
    await vi.advanceTimersByTimeAsync(25);
    expect(log).toEqual(['long', 'b', 'c']);
    b.state.end();
    c.state.end();
    await Promise.all(done);
    expect(s.active).toBe(0);
  });

  it('gives the slot back when a task fails', async () => {
    const s = slots();
    const failing = s.run(() => Promise.reject(new Error('load failed')));
    const next = s.run(() => Promise.resolve('loaded'));
    await expect(failing).rejects.toThrow('load failed');
    await expect(next).resolves.toBe('loaded');
    expect(s.active).toBe(0);
  });
});
