import type { Kysely } from 'kysely';

/**
 * The storefront cart a tracked event came from, so an order placed without a signed-in customer
 * is attributed to the clicks made in the same cart (docs/attribution.md, "Attribution"). Frozen.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('track_events').addColumn('cart_token', 'text').execute();
  // The click window of an anonymous order: a cart's clicks in a time range.
  const columns = ['shop_id', 'cart_token', 'created_at'];
  await db.schema.createIndex('track_events_cart').on('track_events').columns(columns).execute();
}
