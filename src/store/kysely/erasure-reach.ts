import { sql, type Transaction } from 'kysely';
import { chunks } from '../codec.js';
import type { Database } from '../schema.js';
import { customerRecords } from './privacy-export.js';
import { bodyNamesErased, holdsAddress, type ErasedSubjects } from '../../domain/erased-bodies.js';

/*
 * What an erasure reaches beyond the customer's own rows: the stored webhook bodies that name them, and
 * other customers' exports that hold something of theirs (docs/operations.md, "Privacy").
 */

/**
 * Applied webhooks are not needed again; those naming what the erasure covers lose their body
 * (`bodyNamesErased`). Found by lower-cased text, 500 patterns a statement, then read: the text of an
 * id or an e-mail also occurs in bodies about other customers. Returns when each blanked body was
 * received.
 */
export async function blankWebhooksNaming(
  trx: Transaction<Database>,
  shopId: number,
  erased: ErasedSubjects,
): Promise<number[]> {
  const patterns = [
    String(erased.customerId),
    ...erased.emails,
    ...[...erased.orderIds].map(String),
    ...erased.phones.map((phone) => phone.trim()).filter((phone) => phone !== ''),
  ];
  const blanked: number[] = [];
  for (let at = 0; at < patterns.length; at += 500) {
    const part = patterns.slice(at, at + 500).map((p) => `%${p.toLowerCase()}%`);
    const candidates = await trx
      .selectFrom('shop_webhooks')
      .select(['webhook_id', 'topic', 'payload', 'received_at'])
      .where('shop_id', '=', shopId)
      .where('applied_at', 'is not', null)
      .where('payload', '!=', '{}')
      .where((eb) => eb.or(part.map((pattern) => eb(eb.fn<string>('lower', ['payload']), 'like', pattern))))
      .execute();
    const naming = candidates.filter((row) => bodyNamesErased(row.topic, row.payload, erased));
    await blank(trx, shopId, naming);
    for (const row of naming) blanked.push(Number(row.received_at));
  }
  return blanked;
}

/** Empties these stored webhook bodies. */
export async function blank(trx: Transaction<Database>, shopId: number, rows: readonly { webhook_id: string }[]) {
  for (const part of chunks(rows, 1, 500))
    await trx
      .updateTable('shop_webhooks')
      .set({ payload: '{}' })
      .where('shop_id', '=', shopId)
      .where(
        'webhook_id',
        'in',
        part.map((row) => row.webhook_id),
      )
      .execute();
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
    const requests = await othersExportsNaming(trx, shopId, customerId, part);
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

/**
 * Other customers' data-request exports holding a webhook body the erasure blanked (a gift shipped to
 * the erased customer, in the giver's export) lose that body, found by when it was received: the rest
 * of the export stays as its request found it (an e-mail it gave, which the stored row may lack).
 */
export async function dropBlankedFromExports(
  trx: Transaction<Database>,
  shopId: number,
  customerId: number,
  receivedAt: readonly number[],
): Promise<void> {
  const times = new Set(receivedAt.map((at) => new Date(at).toISOString()));
  for (const part of chunks([...times], 1, 100)) {
    const requests = await othersExportsNaming(trx, shopId, customerId, part);
    for (const request of requests) {
      const records = JSON.parse(request.export ?? '{}') as { webhooks?: { received_at?: unknown }[] };
      const kept = (records.webhooks ?? []).filter((w) => !times.has(String(w.received_at)));
      if (kept.length === (records.webhooks ?? []).length) continue;
      await trx
        .updateTable('privacy_requests')
        .set({ export: JSON.stringify({ ...records, webhooks: kept }) })
        .where('shop_id', '=', shopId)
        .where('id', '=', request.id)
        .execute();
    }
  }
}

/** Other customers' data-request exports whose text holds one of these (any case). */
function othersExportsNaming(trx: Transaction<Database>, shopId: number, customerId: number, texts: readonly string[]) {
  return trx
    .selectFrom('privacy_requests')
    .select(['id', 'customer_id', 'export'])
    .where('shop_id', '=', shopId)
    .where('kind', '=', 'data_request')
    .where('customer_id', '!=', customerId)
    .where((eb) =>
      eb.or(texts.map((text) => eb(eb.fn<string>('lower', ['export']), 'like', `%${text.toLowerCase()}%`))),
    )
    .execute();
}

/** The `tk` that takes the counts of tracking keys naming an erased customer. */
export const ERASED_TK = 'erased';

/**
 * A campaign's tracking keys (`tk`) that name one of an erased customer's e-mails (a key made per
 * recipient) go; their counts stay, under `erased`, so the campaign's totals do not move. A key
 * naming them otherwise (an id of theirs) cannot be told from any other text and stays.
 */
export async function forgetTrackingKeysNaming(trx: Transaction<Database>, shopId: number, emails: readonly string[]) {
  for (const part of chunks([...emails], 1, 100)) {
    const candidates = await trx
      .selectFrom('campaign_counts')
      .selectAll()
      .where('shop_id', '=', shopId)
      .where('tk', '!=', ERASED_TK)
      .where((eb) => eb.or(part.map((email) => eb(eb.fn<string>('lower', ['tk']), 'like', `%${email}%`))))
      .execute();
    // `_` in an address matches any letter in a pattern, and `bob@x.com` is within `jimbob@x.com`: each key is
    // read again, for the whole address.
    const naming = candidates.filter((row) => part.some((email) => holdsAddress(row.tk.toLowerCase(), email)));
    for (const row of naming) {
      await trx
        .insertInto('campaign_counts')
        .values({ ...row, tk: ERASED_TK })
        .onConflict((oc) =>
          oc
            .columns(['shop_id', 'campaign_id', 'tk', 'kind'])
            .doUpdateSet({ count: sql`campaign_counts.count + ${row.count}` }),
        )
        .execute();
      await trx
        .deleteFrom('campaign_counts')
        .where('shop_id', '=', shopId)
        .where('campaign_id', '=', row.campaign_id)
        .where('tk', '=', row.tk)
        .where('kind', '=', row.kind)
        .execute();
    }
  }
}
