import type { Transaction } from 'kysely';
import { chunks } from '../codec.js';
import type { Database } from '../schema.js';
import { customerRecords } from './privacy-export.js';

/*
 * What an erasure reaches beyond the customer's own rows: the stored webhook bodies that name them, and
 * other customers' exports that hold something of theirs (docs/operations.md, "Privacy").
 */

/**
 * Applied webhooks are not needed again; those naming the customer (by id, e-mail, phone, or an
 * order to redact) lose their body. Matched on lower-cased text, 500 patterns a statement: a pattern
 * that matches more (a shorter id within a longer one, `_` in an e-mail) only blanks more of them.
 */
export async function blankWebhooksNaming(trx: Transaction<Database>, shopId: number, patterns: readonly string[]) {
  for (let at = 0; at < patterns.length; at += 500) {
    const part = patterns.slice(at, at + 500).map((p) => `%${p.toLowerCase()}%`);
    await trx
      .updateTable('shop_webhooks')
      .set({ payload: '{}' })
      .where('shop_id', '=', shopId)
      .where('applied_at', 'is not', null)
      .where((eb) => eb.or(part.map((pattern) => eb(eb.fn<string>('lower', ['payload']), 'like', pattern))))
      .execute();
  }
}

/**
 * Another customer's data-request export that names the erased customer's e-mail or one of their
 * sessions (one made when a session both browsed in brought their events with it) is made again from
 * what remains.
 */
export async function rebuildExportsNaming(
  trx: Transaction<Database>,
  shopId: number,
  customerId: number,
  texts: readonly string[],
): Promise<void> {
  const rebuilt = new Set<string>();
  for (const part of chunks([...new Set(texts)], 100)) {
    const requests = await trx
      .selectFrom('privacy_requests')
      .select(['id', 'customer_id'])
      .where('shop_id', '=', shopId)
      .where('kind', '=', 'data_request')
      .where('customer_id', '!=', customerId)
      .where((eb) =>
        eb.or(part.map((text) => eb(eb.fn<string>('lower', ['export']), 'like', `%${text.toLowerCase()}%`))),
      )
      .execute();
    for (const request of requests) {
      if (request.customer_id === null || rebuilt.has(request.id)) continue;
      rebuilt.add(request.id);
      const records = await customerRecords(trx, shopId, Number(request.customer_id));
      await trx
        .updateTable('privacy_requests')
        .set({ export: JSON.stringify(records) })
        .where('shop_id', '=', shopId)
        .where('id', '=', request.id)
        .execute();
    }
  }
}
