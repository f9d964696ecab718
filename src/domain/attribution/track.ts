import { getOrCreate } from '../maps.js';

/** What a storefront tracks about a recommendation (docs/attribution.md, "Tracking"). */
export const TRACK_TYPES = ['impression', 'click', 'add_to_cart'] as const;
export type TrackType = (typeof TRACK_TYPES)[number];

/** One tracked event as stored. */
export interface TrackEvent {
  type: TrackType;
  uuid: string | null;
  customer_id: number | null;
  /** The `metadata.source` of the answer the product came from, as sent. */
  source: string | null;
  product_id: number | null;
  variant_id: number | null;
  /** The storefront cart's token, when sent: an order of the same cart is attributed to its clicks. */
  cart_token: string | null;
  /** Epoch ms. */
  created_at: number;
}

/** A tracked event with its shop and the experiment arm its source belongs to, ready to write. */
export type TrackRow = TrackEvent & { shop_id: number; experiment_id: number | null; arm: number | null };

/** Impressions, clicks and add-to-carts per key, folded from a batch. */
export function countTracked<K>(
  rows: readonly TrackRow[],
  keyOf: (row: TrackRow) => K | null,
): Map<string, { key: K; impressions: number; clicks: number; add_to_carts: number }> {
  const out = new Map<string, { key: K; impressions: number; clicks: number; add_to_carts: number }>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    const id = JSON.stringify(key);
    const count = getOrCreate(out, id, () => ({ key, impressions: 0, clicks: 0, add_to_carts: 0 }));
    if (row.type === 'impression') count.impressions++;
    else if (row.type === 'click') count.clicks++;
    else count.add_to_carts++;
  }
  return out;
}
