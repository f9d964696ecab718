import { createHash } from 'node:crypto';
import pRetry from 'p-retry';
import { idempotencyRefused, sharedRuns } from '../idempotency.js';
import type { Idempotency } from '../provider.js';
import { ProviderUnavailable } from './client.js';
import type { RemoteProviderDeps } from './provider.js';

class KeyBusy extends Error {}

/** How far a write got: whether the provider may hold something of it already. */
export interface WriteProgress {
  created: boolean;
}

/** One remote write: `marker` tags what it creates so a retry finds it; `resumed`: look before writing. */
export type RemoteWrite<T> = (marker: string, resumed: boolean, progress: WriteProgress) => Promise<T>;

/**
 * Remote writes made at most once per idempotency key: the key is kept in Rebound's database, a
 * write whose answer was lost is looked up before it is tried again, and identical retries
 * arriving together on this node share one run (docs/billing.md, "Retries, timeouts and faults").
 */
export function createKeyedWrites(deps: Pick<RemoteProviderDeps, 'store' | 'policy'>) {
  const { store, policy } = deps;
  const shareRun = sharedRuns<{ outcome: unknown; replayed: boolean }>();

  async function withKey<T>(
    shopId: number,
    idempotency: Idempotency,
    write: RemoteWrite<T>,
    decode: (text: string) => T,
  ) {
    // The marker follows the key, so a retry of a request whose answer was lost finds its write.
    const marker = createHash('sha256').update(`${shopId}:${idempotency.key}`).digest('hex').slice(0, 32);
    const claim = await pRetry(
      async () => {
        const result = await store.claimIdempotencyKey(shopId, idempotency.key, idempotency.hash, 3 * policy.budgetMs);
        if (result.state === 'busy') throw new KeyBusy('another request holds this key');
        return result;
      },
      {
        retries: 8,
        minTimeout: 100,
        maxRetryTime: 3 * policy.budgetMs,
        shouldRetry: ({ error }) => error instanceof KeyBusy,
      },
    ).catch((error: unknown) => {
      throw error instanceof KeyBusy ? idempotencyRefused('busy') : error;
    });
    if (claim.state === 'conflict') throw idempotencyRefused('conflict');
    if (claim.state === 'done') return { outcome: decode(claim.outcome), replayed: true };
    const progress: WriteProgress = { created: false };
    try {
      const outcome = await write(marker, claim.resumed, progress);
      await store.finishIdempotencyKey(shopId, idempotency.key, JSON.stringify(outcome));
      return { outcome, replayed: false };
    } catch (error) {
      // Whether anything may have been written decides if the next try with this key must look first.
      const mayHaveWritten =
        claim.resumed || progress.created || (error instanceof ProviderUnavailable && error.mayHaveWritten);
      await store.abandonIdempotencyKey(shopId, idempotency.key, mayHaveWritten);
      throw error;
    }
  }

  /** Runs a write once per key: a repeat gets the first outcome with `replayed`; other parameters are a 409. */
  return async function keyedWrite<T>(
    shopId: number,
    idempotency: Idempotency,
    write: RemoteWrite<T>,
    decode: (text: string) => T,
  ): Promise<{ outcome: T; replayed: boolean }> {
    const { value, shared } = await shareRun(shopId, idempotency, () => withKey(shopId, idempotency, write, decode));
    return { outcome: value.outcome as T, replayed: shared || value.replayed };
  };
}

export type KeyedWrites = ReturnType<typeof createKeyedWrites>;
