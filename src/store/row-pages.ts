import type { Kysely } from 'kysely';

/**
 * Every row of a per-shop table keyed by (shop_id, id), a page at a time in key order: for a
 * migration that rewrites rows one by one without holding the whole table in memory.
 */
export async function forEachRowPage<R extends { shop_id: number }>(
  db: Kysely<any>,
  table: string,
  columns: readonly string[],
  pageSize: number,
  each: (rows: R[]) => Promise<void>,
): Promise<void> {
  let after: { shop_id: number; id: number | string } | null = null;
  for (;;) {
    let query = db
      .selectFrom(table)
      .select(['shop_id', 'id', ...columns])
      .orderBy('shop_id')
      .orderBy('id')
      .limit(pageSize);
    if (after !== null) {
      const { shop_id, id } = after;
      query = query.where((eb) =>
        eb.or([eb('shop_id', '>', shop_id), eb.and([eb('shop_id', '=', shop_id), eb('id', '>', id)])]),
      );
    }
    const rows = (await query.execute()) as (R & { id: number | string })[];
    if (rows.length === 0) return;
    await each(rows);
    const last = rows[rows.length - 1]!;
    after = { shop_id: Number(last.shop_id), id: typeof last.id === 'string' ? last.id : Number(last.id) };
  }
}
