import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';

type ProviderMethods = Pick<Store, 'getBillingProvider' | 'putBillingProvider' | 'listBillingProviders'>;

/** A shop's billing provider settings (the idempotency keys of its writes: idempotency.ts). */
export function billingProviderMethods(db: Kysely<Database>): ProviderMethods {
  return {
    async getBillingProvider(shopId) {
      const row = await db.selectFrom('billing_providers').selectAll().where('shop_id', '=', shopId).executeTakeFirst();
      return row ? { ...row, shop_id: Number(row.shop_id), type: row.type as 'ledger' | 'remote' } : null;
    },
    async putBillingProvider(shopId, record) {
      const values = { shop_id: shopId, ...record, updated_at: Date.now() };
      await db
        .insertInto('billing_providers')
        .values(values)
        .onConflict((oc) =>
          oc.column('shop_id').doUpdateSet({
            type: record.type,
            base_url: record.base_url,
            api_version: record.api_version,
            api_token: record.api_token,
            updated_at: values.updated_at,
          }),
        )
        .execute();
    },
    async listBillingProviders() {
      const rows = await db.selectFrom('billing_providers').selectAll().orderBy('shop_id').execute();
      return rows.map((row) => ({ ...row, shop_id: Number(row.shop_id), type: row.type as 'ledger' | 'remote' }));
    },
  };
}
