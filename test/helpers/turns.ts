import { expect } from 'vitest';
import type { TestApp } from './app.js';

/**
 * Requests to a resident shop, one after another, for as long as `work` runs: how many were answered.
 * Each arrives on a turn of the event loop of its own, as a request from the network does (inject
 * alone answers from memory in microtasks, and would never let the work go on). Long work that gives
 * turns lets many in; work done in one stretch lets in one or two. Counted, never timed.
 */
export async function answeredWhile(t: TestApp, key: string, work: Promise<unknown>): Promise<number> {
  let done = false;
  void work.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  let answered = 0;
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    const res = await t.app.inject(`/api/v1/products/trending_products?key=${key}&bust_cache=yes`);
    expect(res.statusCode).toBe(200);
    if (!done) answered++;
  }
  return answered;
}
