import type { Transaction } from 'kysely';
import type { Database } from '../schema.js';

type Row = { shop_id: number; customer_id: number | null; created_at: number };

/**
 * The rows of a write that an erasure has not already removed: a row naming an erased customer and
 * dated at or before their erasure (a beacon sent late, a bulk upload of old events) would bring
 * back the behaviour the erasure deleted, and is left out (docs/operations.md, "Privacy"). One
 * indexed read for the whole write, and none when no row names a customer.
 */
export async function withoutErased<T extends Row>(trx: Transaction<Database>, rows: readonly T[]): Promise<T[]> {
  const named = rows.filter((r) => r.customer_id !== null);
  if (named.length === 0) return [...rows];
  const erased = await trx
    .selectFrom('erasures')
    .select(['shop_id', 'subject_id', 'erased_at'])
    .where('subject', '=', 'customer')
    .where('shop_id', 'in', [...new Set(named.map((r) => r.shop_id))])
    .where('subject_id', 'in', [...new Set(named.map((r) => r.customer_id!))])
    .execute();
  if (erased.length === 0) return [...rows];
  const erasedAt = new Map(erased.map((e) => [`${e.shop_id}:${e.subject_id}`, Number(e.erased_at)]));
  return rows.filter((r) => {
    const at = r.customer_id === null ? undefined : erasedAt.get(`${r.shop_id}:${r.customer_id}`);
    return at === undefined || r.created_at > at;
  });
}
