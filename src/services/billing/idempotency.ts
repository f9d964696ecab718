import { createHash } from 'node:crypto';
import { ConflictError } from '../../domain/errors.js';
import type { Idempotency } from './provider.js';

/**
 * Idempotency-Key handling shared by every billing provider (docs/billing.md, "One-time purchases"):
 * the key with a digest of the request, the two refusals, and runs shared on one node. The keys
 * themselves are kept by the store (`src/store/kysely/idempotency.ts`).
 */

/** The key (validated by the route's header schema) with a digest of what the request asks; null without one. */
export function idempotencyOf(key: string | null, request: unknown): Idempotency | null {
  if (!key) return null;
  return { key, hash: createHash('sha256').update(JSON.stringify(request)).digest('hex') };
}

/** The 409 for a key that was used with other parameters, or that another request still holds. */
export function idempotencyRefused(state: 'conflict' | 'busy'): ConflictError {
  return state === 'conflict'
    ? new ConflictError('This Idempotency-Key was used with other parameters.', 'idempotency_conflict')
    : new ConflictError(
        'A request with this Idempotency-Key is still being processed; retry shortly.',
        'idempotency_in_progress',
      );
}

/**
 * Identical requests arriving together on this node share one run (other nodes wait on the key
 * in the store): the second gets the first's answer marked as shared; other parameters are refused.
 */
export function sharedRuns<T>(): (
  shopId: number,
  idempotency: Idempotency,
  run: () => Promise<T>,
) => Promise<{ value: T; shared: boolean }> {
  const running = new Map<string, { hash: string; done: Promise<T> }>();
  return async (shopId, idempotency, run) => {
    const slot = `${shopId}\u0000${idempotency.key}`;
    const current = running.get(slot);
    if (current) {
      if (current.hash !== idempotency.hash) throw idempotencyRefused('conflict');
      return { value: await current.done, shared: true };
    }
    const done = run().finally(() => running.delete(slot));
    running.set(slot, { hash: idempotency.hash, done });
    return { value: await done, shared: false };
  };
}
