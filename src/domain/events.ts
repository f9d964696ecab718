import { getOrCreate } from './maps.js';

/** A storefront event (docs/api.md, "Events"): a subject performs a verb on a noun. */
export interface StoreEvent {
  uuid: string | null;
  customer_id: number | null;
  subject: 'user';
  verb: 'viewed' | 'added' | 'removed';
  noun: 'product';
  /** Stored as sent: an unknown handle is kept (catalog sync can lag) and resolved when read. */
  handle: string | null;
  subject_email: string | null;
  theme_id: string | null;
  /** Epoch milliseconds. */
  created_at: number;
}

export interface StoredEvent extends StoreEvent {
  id: number;
  shop_id: number;
}

export const VERBS = ['viewed', 'added', 'removed'] as const;

/** yyyymmdd (UTC) of an instant: the bucket of the per-day counts. */
export function utcDay(epochMs: number): number {
  const d = new Date(epochMs);
  return d.getUTCFullYear() * 10_000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/**
 * An event as the intake hands it to the store: `uncounted` when its handle is not in the shop's catalog,
 * `unchecked` when the shop was not loaded to tell (the store checks the handle against its products).
 */
export type IntakeEvent = StoreEvent & { shop_id: number; uncounted?: boolean; unchecked?: boolean };

/** Views, adds and removes per handle and day, folded from a batch of events. */
export function countEvents(
  events: readonly IntakeEvent[],
): { shop_id: number; day: number; handle: string; views: number; adds: number; removes: number }[] {
  const counts = new Map<
    string,
    { shop_id: number; day: number; handle: string; views: number; adds: number; removes: number }
  >();
  for (const e of events) {
    if (e.handle === null || e.uncounted) continue;
    const day = utcDay(e.created_at);
    const key = `${e.shop_id}\u0000${day}\u0000${e.handle}`;
    const row = getOrCreate(counts, key, () => ({
      shop_id: e.shop_id,
      day,
      handle: e.handle,
      views: 0,
      adds: 0,
      removes: 0,
    }));
    if (e.verb === 'viewed') row.views++;
    else if (e.verb === 'added') row.adds++;
    else row.removes++;
  }
  return [...counts.values()];
}
