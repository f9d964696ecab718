import type { Transaction } from 'kysely';
import type { IntakeEvent } from '../../domain/events.js';
import type { Database } from '../schema.js';

/** Handles asked of the products table at once: well under either database's limit of bound parameters. */
const HANDLES_PER_QUERY = 500;

/**
 * The events of a batch with the handles the intake could not check (their shop was not loaded) checked
 * against the shop's products: an unknown one is kept but `uncounted`, as the intake marks it for a loaded
 * shop. So the per-day counts hold only products the shop has, whichever node took the event.
 */
export async function checkedHandles(
  trx: Transaction<Database>,
  events: readonly IntakeEvent[],
): Promise<IntakeEvent[]> {
  const asked = new Map<number, Set<string>>();
  for (const e of events) {
    if (!e.unchecked || e.handle === null) continue;
    const handles = asked.get(e.shop_id) ?? new Set<string>();
    asked.set(e.shop_id, handles.add(e.handle));
  }
  if (asked.size === 0) return [...events];
  const known = new Set<string>();
  for (const [shopId, handles] of asked) {
    const list = [...handles];
    for (let i = 0; i < list.length; i += HANDLES_PER_QUERY) {
      const rows = await trx
        .selectFrom('products')
        .select('handle')
        .where('shop_id', '=', shopId)
        .where('handle', 'in', list.slice(i, i + HANDLES_PER_QUERY))
        .execute();
      for (const row of rows) known.add(`${shopId}\u0000${row.handle}`);
    }
  }
  return events.map((e) =>
    e.unchecked && e.handle !== null && !known.has(`${e.shop_id}\u0000${e.handle}`) ? { ...e, uncounted: true } : e,
  );
}
