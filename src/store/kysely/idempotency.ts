import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../codec.js';
import type { Database } from '../schema.js';

/** Idempotency keys of writes to a remote billing provider (the ledger takes its keys inside its own writes). */
export interface IdempotencyStore {
  /**
   * Takes an idempotency key for a write to a remote provider. `resumed` means an earlier request
   * with this key may have written remotely without an answer: look before writing again.
   */
  claimIdempotencyKey(shopId: number, key: string, hash: string, staleAfterMs: number): Promise<IdempotencyClaim>;
  finishIdempotencyKey(shopId: number, key: string, outcome: string): Promise<void>;
  /** Gives a key back after a failure; `mayHaveWritten` keeps it marked so the next try looks first. */
  abandonIdempotencyKey(shopId: number, key: string, mayHaveWritten: boolean): Promise<void>;
}

export type IdempotencyClaim =
  | { state: 'claimed'; resumed: boolean }
  | { state: 'done'; outcome: string }
  | { state: 'busy' }
  | { state: 'conflict' };

export interface IdempotencyTables {
  idempotency_keys: {
    shop_id: number;
    key: string;
    request_hash: string;
    status: number;
    response: string;
    created_at: number;
  };
}

type Db = Kysely<Database> | Transaction<Database>;

/** Idempotency-key states: finished (its answer stored), being worked on, tried without an answer. */
const DONE = 1;
const IN_PROGRESS = 0;
const ATTEMPTED = -1;

/** What a key already taken holds, read after taking it failed. */
type StoredKey =
  | { state: 'conflict' }
  | { state: 'done'; outcome: string }
  | { state: 'pending'; status: number; createdAt: number };

/**
 * The one home of the `idempotency_keys` table: taking a key (inside the caller's transaction when
 * the write is local), storing its answer, and reading what a taken key holds.
 */
export async function takeKey(db: Db, shopId: number, key: string, hash: string, now = Date.now()): Promise<void> {
  await db
    .insertInto('idempotency_keys')
    .values({ shop_id: shopId, key, request_hash: hash, status: IN_PROGRESS, response: '', created_at: now })
    .execute();
}

/** Stores the answer a key replays from now on. */
export async function finishKey(db: Db, shopId: number, key: string, outcome: string): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status: DONE, response: outcome })
    .where('shop_id', '=', shopId)
    .where('key', '=', key)
    .execute();
}

/** What a taken key holds: its answer, a conflict when the request differs, or a pending state. */
export async function storedKey(db: Db, shopId: number, key: string, hash: string): Promise<StoredKey> {
  const stored = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  if (stored.request_hash !== hash) return { state: 'conflict' };
  const status = Number(stored.status);
  if (status > 0) return { state: 'done', outcome: stored.response };
  return { state: 'pending', status, createdAt: stored.created_at };
}

/** Takes a key and reports false when another request holds it already. */
async function tryTakeKey(db: Db, shopId: number, key: string, hash: string, now = Date.now()): Promise<boolean> {
  try {
    await takeKey(db, shopId, key, hash, now);
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** The idempotency keys of writes made to a remote provider, which may outlive the request that took them. */
export function idempotencyMethods(db: Kysely<Database>): IdempotencyStore {
  return {
    async claimIdempotencyKey(shopId, key, hash, staleAfterMs): Promise<IdempotencyClaim> {
      const now = Date.now();
      if (await tryTakeKey(db, shopId, key, hash, now)) return { state: 'claimed', resumed: false };
      const stored = await storedKey(db, shopId, key, hash);
      if (stored.state !== 'pending') return stored;
      // A key tried before without an answer, or one whose worker died: taken over by exactly one
      // request (compare-and-set on the state it was read in), which must look before it writes.
      if (stored.status === ATTEMPTED || Number(stored.createdAt) < now - staleAfterMs) {
        const taken = await db
          .updateTable('idempotency_keys')
          .set({ status: IN_PROGRESS, created_at: now })
          .where('shop_id', '=', shopId)
          .where('key', '=', key)
          .where('status', '=', stored.status)
          .where('created_at', '=', stored.createdAt)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 1) return { state: 'claimed', resumed: true };
      }
      return { state: 'busy' };
    },
    finishIdempotencyKey: (shopId, key, outcome) => finishKey(db, shopId, key, outcome),
    async abandonIdempotencyKey(shopId, key, mayHaveWritten) {
      const held = db
        .updateTable('idempotency_keys')
        .where('shop_id', '=', shopId)
        .where('key', '=', key)
        .where('status', '=', IN_PROGRESS);
      if (mayHaveWritten) await held.set({ status: ATTEMPTED }).execute();
      else
        await db
          .deleteFrom('idempotency_keys')
          .where('shop_id', '=', shopId)
          .where('key', '=', key)
          .where('status', '=', IN_PROGRESS)
          .execute();
    },
  };
}
