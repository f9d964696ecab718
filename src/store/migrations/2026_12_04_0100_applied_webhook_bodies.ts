import type { Kysely } from 'kysely';
import { forEachRowPage } from '../row-pages.js';

/** Exports read per statement while their copies of webhook bodies are taken out. */
const EXPORTS_PAGE = 100;

/**
 * A storefront webhook's body is no longer kept once applied (docs/operations.md, "Privacy"): what it
 * held is in the rows it was applied to, and a kept body (a guest order's buyer, an address, a gift
 * note) had to be searched as raw text by every erasure and export of the shop, without bound. The
 * bodies applied before are forgotten here, and data-request exports lose the copies they held.
 * Not undone: the bodies are gone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('shop_webhooks')
    .set({ payload: '{}' })
    .where('applied_at', 'is not', null)
    .where('payload', '!=', '{}')
    .execute();
  await forEachRowPage<{ shop_id: number; id: string; export: string | null }>(
    db,
    'privacy_requests',
    ['export'],
    EXPORTS_PAGE,
    async (rows) => {
      for (const row of rows) {
        const records = row.export === null ? null : (JSON.parse(row.export) as Record<string, unknown>);
        if (records === null || !('webhooks' in records)) continue;
        const { webhooks: _, ...kept } = records;
        await db
          .updateTable('privacy_requests')
          .set({ export: JSON.stringify(kept) })
          .where('shop_id', '=', row.shop_id)
          .where('id', '=', row.id)
          .execute();
      }
    },
  );
}

export async function down(): Promise<void> {}
