import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { nextCounterBlock } from './shops.js';

export interface PrivacyRequestRecord {
  shop_id: number;
  id: string;
  kind: 'data_request' | 'redact' | 'erasure';
  customer_id: number | null;
  received_at: number;
  /** JSON of everything stored about the customer (data requests only). */
  export: string | null;
  expires_at: number;
}

/** The privacy requests a shop lists: exports kept 30 days, erasures recorded without personal data. */
export interface PrivacyRequestStore {
  /**
   * Where the shop's erasures stand (the latest one's time, 0 for none): read before an export's
   * records, and given to `putPrivacyRequest` with them.
   */
  erasureMark(shopId: number): Promise<number>;
  /**
   * Writes a request. With `readAfter` (an export read after that `erasureMark`): false, and nothing
   * written, when an erasure of the shop came since, as it may have taken records the export holds.
   */
  putPrivacyRequest(record: PrivacyRequestRecord, readAfter?: number): Promise<boolean>;
  /** Requests not expired at `now`, newest first. */
  listPrivacyRequests(shopId: number, now: number): Promise<PrivacyRequestRecord[]>;
  deleteExpiredPrivacyRequests(now: number): Promise<number>;
}

export function privacyRequestMethods(db: Kysely<Database>): PrivacyRequestStore {
  const markOf = async (q: Pick<Kysely<Database>, 'selectFrom'>, shopId: number) => {
    const row = await q
      .selectFrom('erasures')
      .select((eb) => eb.fn.max('erased_at').as('mark'))
      .where('shop_id', '=', shopId)
      .executeTakeFirst();
    return Number(row?.mark ?? 0);
  };
  return {
    erasureMark: (shopId) => markOf(db, shopId),
    async putPrivacyRequest(record, readAfter) {
      const { shop_id: _s, id: _i, ...update } = record;
      return db.transaction().execute(async (trx) => {
        if (readAfter !== undefined) {
          // An erasure takes this counter first and holds it to its commit: it is before this, and its
          // record is read here, or after, and it finds this export to prune.
          await nextCounterBlock(trx, record.shop_id, 'events', 0);
          if ((await markOf(trx, record.shop_id)) !== readAfter) return false;
        }
        await trx
          .insertInto('privacy_requests')
          .values(record)
          .onConflict((oc) => oc.columns(['shop_id', 'id']).doUpdateSet(update))
          .execute();
        return true;
      });
    },
    async listPrivacyRequests(shopId, now) {
      const rows = await db
        .selectFrom('privacy_requests')
        .selectAll()
        .where('shop_id', '=', shopId)
        .where('expires_at', '>', now)
        .orderBy('received_at', 'desc')
        .execute();
      return rows.map((r) => ({
        ...r,
        shop_id: Number(r.shop_id),
        kind: r.kind as PrivacyRequestRecord['kind'],
        customer_id: r.customer_id === null ? null : Number(r.customer_id),
        received_at: Number(r.received_at),
        expires_at: Number(r.expires_at),
      }));
    },
    async deleteExpiredPrivacyRequests(now) {
      const result = await db.deleteFrom('privacy_requests').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
