import { sql, type Transaction } from 'kysely';
import { chunks } from '../codec.js';
import type { Database } from '../schema.js';
import { holdsAddress } from '../../domain/addresses.js';
import { eventRowsOf, trackingOf } from './customer-activity.js';

/*
 * What an erasure reaches beyond the customer's own rows: other customers' exports that hold something
 * of theirs, and tracking keys naming them (docs/operations.md, "Privacy").
 */

/** What an erasure deleted that another customer's export may hold (a shared device or cart). */
export interface ErasedRecords {
  customerId: number;
  /** The texts that find those exports: the customer's e-mails, and their sessions and carts (`tokens`). */
  emails: readonly string[];
  tokens: readonly string[];
  eventIds: ReadonlySet<number>;
  trackIds: ReadonlySet<number>;
  visitors: ReadonlySet<string>;
  billingIds: ReadonlySet<number>;
}

/** An export's record, as much of it as is read here. */
type Row = Record<string, unknown>;
type Export = Record<string, unknown>;

/**
 * Other customers' data-request exports lose what the erasure deleted, record by record: an event or a
 * click they shared a device or a cart with the erased customer on, a visit, a billing customer. The
 * rest stays as its request found it (the e-mails it gave, which the stored rows may lack). An export
 * is found by the erased customer's e-mails (whole addresses: `bob@x.com` is within `jimbob@x.com`),
 * sessions and carts (as JSON strings).
 */
export async function dropErasedFromExports(
  trx: Transaction<Database>,
  shopId: number,
  erased: ErasedRecords,
): Promise<void> {
  const { customerId } = erased;
  const texts = [
    ...erased.emails.map((email) => email.toLowerCase()),
    // A `\\` escapes in PostgreSQL's patterns: any character stands for it (each export is read again).
    ...erased.tokens.map((token) => JSON.stringify(token).toLowerCase()),
  ];
  const done = new Set<string>();
  for (const part of chunks([...new Set(texts)], 1, 100)) {
    for (const request of await othersExportsNaming(trx, shopId, customerId, part)) {
      if (done.has(request.id)) continue;
      done.add(request.id);
      const records = JSON.parse(request.export ?? '{}') as Export;
      const kept = withoutErased(records, erased);
      if (kept === records) continue;
      await trx
        .updateTable('privacy_requests')
        .set({ export: JSON.stringify(kept) })
        .where('shop_id', '=', shopId)
        .where('id', '=', request.id)
        .execute();
    }
  }
}

/** An export without the erased records; the same object when it held none. */
export function withoutErased(records: Export, erased: ErasedRecords) {
  const billed = (doc: Row) => erased.billingIds.has(Number(doc.customer_id));
  // A record of an export made before its rows were told apart may still name them: it goes too.
  const emails = new Set(erased.emails.map((email) => email.toLowerCase()));
  const namesThem = (row: Row) =>
    Number(row.customer_id) === erased.customerId ||
    ((row.customer_id ?? null) === null &&
      typeof row.subject_email === 'string' &&
      emails.has(row.subject_email.trim().toLowerCase()));
  const gone: Record<string, (row: Row) => boolean> = {
    events: (e) => erased.eventIds.has(Number(e.id)) || namesThem(e),
    tracking: (t) => erased.trackIds.has(Number(t.id)) || namesThem(t),
    experiment_visitors: (v) => erased.visitors.has(String(v.visitor)),
    track_counted: (v) => erased.visitors.has(String(v.visitor)),
    billing_customers: (b) => erased.billingIds.has(Number(b.id)),
    billing_addresses: billed,
    billing_subscriptions: billed,
    billing_charges: billed,
    billing_onetimes: billed,
    billing_orders: billed,
    campaign_claims: billed,
  };
  let changed = false;
  const kept: Export = { ...records };
  for (const [name, isGone] of Object.entries(gone)) {
    const list = records[name];
    if (!Array.isArray(list)) continue;
    const left = (list as Row[]).filter((row) => !isGone(row));
    if (left.length === list.length) continue;
    kept[name] = left;
    changed = true;
  }
  return changed ? kept : records;
}

/** Other customers' data-request exports whose text holds one of these (any case), read for the whole text. */
async function othersExportsNaming(
  trx: Transaction<Database>,
  shopId: number,
  customerId: number,
  texts: readonly string[],
) {
  const candidates = await trx
    .selectFrom('privacy_requests')
    .select(['id', 'customer_id', 'export'])
    .where('shop_id', '=', shopId)
    .where('kind', '=', 'data_request')
    .where('customer_id', '!=', customerId)
    .where((eb) =>
      eb.or(texts.map((text) => eb(eb.fn<string>('lower', ['export']), 'like', `%${text.replaceAll('\\', '_')}%`))),
    )
    .execute();
  // `_` and `%` in a text match other characters in a pattern, and an address within a longer one: read again.
  return candidates.filter((row) => {
    const text = (row.export ?? '').toLowerCase();
    return texts.some((t) => (t.startsWith('"') ? text.includes(t) : holdsAddress(text, t)));
  });
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

/** The ids of the events and tracked events an erasure is about to delete (others' exports may hold them). */
export async function erasedRowIds(
  trx: Transaction<Database>,
  shopId: number,
  customer: { id: number; emails: readonly string[]; sessions: readonly string[]; carts: readonly string[] },
): Promise<{ eventIds: Set<number>; trackIds: Set<number> }> {
  const { id, emails, sessions, carts } = customer;
  const ids = (rows: { id: number | string }[]) => new Set(rows.map((row) => Number(row.id)));
  return {
    eventIds: ids(await eventRowsOf(trx, shopId, id, emails, sessions)),
    trackIds: ids(await trackingOf(trx, shopId, id, sessions, carts)),
  };
}
