import type { Kysely, Transaction } from 'kysely';
import { erasedIdentityDigest, predatesErasure, type ErasedIdentityKind } from '../../domain/erasure.js';
import type { Database } from '../schema.js';
import { chunks } from '../codec.js';

type Row = {
  shop_id: number;
  customer_id: number | null;
  created_at: number;
  uuid?: string | null;
  subject_email?: string | null;
  cart_token?: string | null;
};

/**
 * The identities an anonymous row names, as erasure digests. A row naming a customer is theirs, as an
 * erasure finds rows: another customer's own event in a session or cart the erased one shared (one
 * device, two accounts) stayed through the erasure, and stays when it comes late.
 */
function identitiesOf(row: Row): string[] {
  if (row.customer_id !== null) return [];
  const named: [ErasedIdentityKind, string | null | undefined][] = [
    ['session', row.uuid],
    ['email', row.subject_email],
    ['cart', row.cart_token],
  ];
  return named.filter(([, value]) => value).map(([kind, value]) => erasedIdentityDigest(kind, value!));
}

/**
 * The rows of a write that an erasure has not already removed: a row naming an erased customer, by
 * id or by an e-mail, session or cart token the erasure covered, and dated at or before the erasure
 * (a beacon sent late, one in a write buffer when the erasure ran, a bulk upload of old events) would
 * bring back what the erasure deleted, and is left out; so is one dated in the future, as undated
 * (docs/operations.md, "Privacy"). At most one indexed read for the customers and one for the
 * identities, per write. The caller holds the shops'
 * event counters, which an erasure takes first: the two never interleave.
 */
export async function withoutErased<T extends Row>(trx: Transaction<Database>, rows: readonly T[]): Promise<T[]> {
  if (rows.length === 0) return [];
  const shops = [...new Set(rows.map((r) => r.shop_id))];
  const digests = rows.map(identitiesOf);
  const ids = [...new Set(rows.flatMap((r) => (r.customer_id === null ? [] : [r.customer_id])))];
  const erasedAt = new Map<string, number>();
  for (const part of chunks(ids, 1, 500)) {
    const erased = await trx
      .selectFrom('erasures')
      .select(['shop_id', 'subject_id', 'erased_at'])
      .where('subject', '=', 'customer')
      .where('shop_id', 'in', shops)
      .where('subject_id', 'in', part)
      .execute();
    for (const e of erased) erasedAt.set(`${e.shop_id}:c:${e.subject_id}`, Number(e.erased_at));
  }
  for (const part of chunks([...new Set(digests.flat())], 1, 500)) {
    const erased = await trx
      .selectFrom('erased_identities')
      .select(['shop_id', 'digest', 'erased_at'])
      .where('shop_id', 'in', shops)
      .where('digest', 'in', part)
      .execute();
    for (const e of erased) erasedAt.set(`${e.shop_id}:${e.digest}`, Number(e.erased_at));
  }
  if (erasedAt.size === 0) return [...rows];
  const now = Date.now();
  return rows.filter((row, i) => {
    const keys = digests[i]!.map((d) => `${row.shop_id}:${d}`);
    if (row.customer_id !== null) keys.push(`${row.shop_id}:c:${row.customer_id}`);
    // A time still to come is a device's clock running fast, and says nothing of when the row was made.
    const madeAt = row.created_at > now ? null : row.created_at;
    return keys.every((key) => !predatesErasure(erasedAt.get(key), madeAt));
  });
}

/** Records the identities an erasure covered, as digests, so later writes naming them are checked. */
export async function recordErasedIdentities(
  trx: Transaction<Database>,
  shopId: number,
  identities: Record<ErasedIdentityKind, readonly string[]>,
  erasedAt: number,
): Promise<void> {
  const digests = new Set(
    (Object.entries(identities) as [ErasedIdentityKind, readonly string[]][]).flatMap(([kind, values]) =>
      values.map((value) => erasedIdentityDigest(kind, value)),
    ),
  );
  for (const part of chunks([...digests], 3))
    await trx
      .insertInto('erased_identities')
      .values(part.map((digest) => ({ shop_id: shopId, digest, erased_at: erasedAt })))
      .onConflict((oc) => oc.columns(['shop_id', 'digest']).doUpdateSet({ erased_at: erasedAt }))
      .execute();
}

/** When each of these digests was erased in the shop (absent: never). */
export async function erasedDigests(
  db: Kysely<Database>,
  shopId: number,
  digests: readonly string[],
): Promise<Map<string, number>> {
  const erasedAt = new Map<string, number>();
  for (const part of chunks([...new Set(digests)], 1, 500)) {
    const rows = await db
      .selectFrom('erased_identities')
      .select(['digest', 'erased_at'])
      .where('shop_id', '=', shopId)
      .where('digest', 'in', part)
      .execute();
    for (const row of rows) erasedAt.set(row.digest, Number(row.erased_at));
  }
  return erasedAt;
}
