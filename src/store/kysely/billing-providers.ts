import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../codec.js';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';

type ProviderMethods = Pick<
  Store,
  'getBillingProvider' | 'putBillingProvider' | 'listBillingProviders' | 'claimIdempotencyKey' | 'finishIdempotencyKey' | 'abandonIdempotencyKey'
>;

/** Idempotency-key states: finished (its answer stored), being worked on, tried without an answer. */
export const IDEMPOTENCY_DONE = 1;
const IN_PROGRESS = 0;
const ATTEMPTED = -1;

/** A shop's billing provider settings, and the idempotency keys of writes made to a remote provider. */
export function billingProviderMethods(db: Kysely<Database>): ProviderMethods {
  return {
    async getBillingProvider(shopId) {
      const row = await db.selectFrom('billing_providers').selectAll().where('shop_id', '=', shopId).executeTakeFirst();
      return row ? { ...row, shop_id: Number(row.shop_id), type: row.type as 'ledger' | 'remote' } : null;
    },
    async putBillingProvider(shopId, record) {
      const values = { shop_id: shopId, ...record, updated_at: Date.now() };
      await db
        .insertInto('billing_providers')
        .values(values)
        .onConflict((oc) =>
          oc.column('shop_id').doUpdateSet({
            type: record.type,
            base_url: record.base_url,
            api_version: record.api_version,
            api_token: record.api_token,
            updated_at: values.updated_at,
          }),
        )
        .execute();
    },
    async listBillingProviders() {
      const rows = await db.selectFrom('billing_providers').selectAll().orderBy('shop_id').execute();
      return rows.map((row) => ({ ...row, shop_id: Number(row.shop_id), type: row.type as 'ledger' | 'remote' }));
    },

    async claimIdempotencyKey(shopId, key, hash, staleAfterMs) {
      const now = Date.now();
      try {
        await db
          .insertInto('idempotency_keys')
          .values({ shop_id: shopId, key, request_hash: hash, status: IN_PROGRESS, response: '', created_at: now })
          .execute();
        return { state: 'claimed', resumed: false };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const stored = await db.selectFrom('idempotency_keys').selectAll().where('shop_id', '=', shopId).where('key', '=', key).executeTakeFirstOrThrow();
      if (stored.request_hash !== hash) return { state: 'conflict' };
      const status = Number(stored.status);
      if (status > 0) return { state: 'done', outcome: stored.response };
      // A key tried before without an answer, or one whose worker died: taken over by exactly one
      // request (compare-and-set on the state it was read in), which must look before it writes.
      if (status === ATTEMPTED || Number(stored.created_at) < now - staleAfterMs) {
        const taken = await db
          .updateTable('idempotency_keys')
          .set({ status: IN_PROGRESS, created_at: now })
          .where('shop_id', '=', shopId)
          .where('key', '=', key)
          .where('status', '=', status)
          .where('created_at', '=', stored.created_at)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 1) return { state: 'claimed', resumed: true };
      }
      return { state: 'busy' };
    },
    async finishIdempotencyKey(shopId, key, outcome) {
      await db
        .updateTable('idempotency_keys')
        .set({ status: IDEMPOTENCY_DONE, response: outcome })
        .where('shop_id', '=', shopId)
        .where('key', '=', key)
        .execute();
    },
    async abandonIdempotencyKey(shopId, key, mayHaveWritten) {
      const query = db.updateTable('idempotency_keys').where('shop_id', '=', shopId).where('key', '=', key).where('status', '=', IN_PROGRESS);
      if (mayHaveWritten) await query.set({ status: ATTEMPTED }).execute();
      else await db.deleteFrom('idempotency_keys').where('shop_id', '=', shopId).where('key', '=', key).where('status', '=', IN_PROGRESS).execute();
    },
  };
}
