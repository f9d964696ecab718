import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { productInput } from './fixtures.js';

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

/**
 * Two shops: `resident`, loaded and unlimited by the rate limiter, whose public key is returned, and
 * `importing`, empty, for the work that runs beside it.
 */
export async function residentBesideImporting(t: TestApp): Promise<string> {
  const key = (await t.createShop('resident')).public;
  const unlimited = { settings: { rate_limit_public_per_minute: 100_000 } };
  expect((await t.admin('PATCH', '/admin/v1/shops/resident', unlimited)).statusCode).toBe(200);
  await t.createShop('importing');
  await t.admin('PUT', '/admin/v1/shops/resident/products', [productInput(1), productInput(2)]);
  // Loaded now: its next answers come from memory.
  expect((await t.app.inject(`/api/v1/products/trending_products?key=${key}`)).statusCode).toBe(200);
  return key;
}

/**
 * The turns of the event loop other work was given while `work` ran: a callback re-queued at every
 * turn, counted. Work done in one stretch gives none (on SQLite, whose statements resolve at once).
 */
export async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    await work();
  } finally {
    done = true;
  }
  return turns;
}
