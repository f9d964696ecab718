import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../codec.js';
import type { Database } from '../schema.js';
import { nextCounter } from './shops.js';

/**
 * Storefront webhooks, queued durably and applied in order, and the stored documents' times that
 * keep an older delivery from overwriting a newer one.
 */
export interface ShopWebhookStore {
  /**
   * Queues a storefront webhook durably; false when its id, or the platform event id given with it, was
   * queued before.
   */
  enqueueShopWebhook(
    shopId: number,
    webhookId: string,
    topic: string,
    payload: string,
    eventId?: string,
  ): Promise<boolean>;
  /** The oldest webhooks not applied yet and not waiting for a retry after `now` (epoch ms), across shops. */
  pendingShopWebhooks(
    limit: number,
    now?: number,
  ): Promise<{ shop_id: number; webhook_id: string; topic: string; payload: string; attempts: number }[]>;
  /** Leaves a webhook that failed on our side pending, to be tried again from `retryAt` (epoch ms). */
  retryShopWebhookAt(shopId: number, webhookId: string, retryAt: number): Promise<void>;
  /**
   * Marks a webhook applied, and forgets its body: what it held is in the rows it was applied to, or was
   * refused, and a body names people (a guest order's buyer, an address, a gift note) that no erasure
   * or export should have to search raw text for. Its topic, outcome and times stay.
   */
  markShopWebhook(shopId: number, webhookId: string, outcome: string): Promise<void>;
  /** Deletes the webhooks applied before `before` (epoch ms); how many went. */
  deleteAppliedShopWebhooks(before: number): Promise<number>;
  /** updated_at (epoch ms) of stored products and orders, for "never older over newer". */
  updatedAt(shopId: number, kind: 'products' | 'orders' | 'collections', ids: number[]): Promise<Map<number, number>>;
}

export interface ShopWebhookTables {
  shop_webhooks: {
    shop_id: number;
    webhook_id: string;
    seq: number;
    topic: string;
    payload: string;
    received_at: number;
    applied_at: number | null;
    outcome: string | null;
    attempts: number;
    retry_at: number | null;
  };
}

/** What an applied webhook's body becomes. */
const APPLIED_BODY = '{}';

export function shopWebhookMethods(db: Kysely<Database>): ShopWebhookStore {
  return {
    async enqueueShopWebhook(shopId, webhookId, topic, payload, eventId) {
      try {
        await db.transaction().execute(async (trx) => {
          // The platform's event id, when sent, is claimed with the
          // delivery: another delivery of that event is a repeat.
          if (eventId !== undefined)
            await trx
              .insertInto('webhook_receipts')
              .values({ shop_id: shopId, source: 'storefront-event', webhook_id: eventId, received_at: Date.now() })
              .execute();
          const seq = await nextCounter(trx, 0, 'shop_webhooks');
          await trx
            .insertInto('shop_webhooks')
            .values({
              shop_id: shopId,
              webhook_id: webhookId,
              seq,
              topic,
              payload,
              received_at: Date.now(),
              applied_at: null,
              outcome: null,
              attempts: 0,
              retry_at: null,
            })
            .execute();
        });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    async pendingShopWebhooks(limit, now = Date.now()) {
      const rows = await db
        .selectFrom('shop_webhooks')
        .select(['shop_id', 'webhook_id', 'topic', 'payload', 'attempts'])
        .where('applied_at', 'is', null)
        .where((eb) => eb.or([eb('retry_at', 'is', null), eb('retry_at', '<=', now)]))
        .orderBy('seq')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...r, shop_id: Number(r.shop_id), attempts: Number(r.attempts) }));
    },
    async retryShopWebhookAt(shopId, webhookId, retryAt) {
      await db
        .updateTable('shop_webhooks')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), retry_at: retryAt }))
        .where('shop_id', '=', shopId)
        .where('webhook_id', '=', webhookId)
        .execute();
    },
    async markShopWebhook(shopId, webhookId, outcome) {
      await db
        .updateTable('shop_webhooks')
        .set({ applied_at: Date.now(), outcome, payload: APPLIED_BODY })
        .where('shop_id', '=', shopId)
        .where('webhook_id', '=', webhookId)
        .execute();
    },
    async deleteAppliedShopWebhooks(before) {
      const result = await db.deleteFrom('shop_webhooks').where('applied_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async updatedAt(shopId, kind, ids) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom(kind as 'products')
        .select(['id', 'updated_at'])
        .where('shop_id', '=', shopId)
        .where('id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [Number(r.id), Number(r.updated_at)]));
    },
  };
}
