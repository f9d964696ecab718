import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { BillingProviderType } from '../../domain/billing/types.js';

/** Which billing provider each shop uses: the ledger by default, or a remote provider's API. */
export interface BillingProviderStore {
  /** The shop's billing provider row; null means the ledger (the default). */
  getBillingProvider(shopId: number): Promise<BillingProviderRecord | null>;
  putBillingProvider(shopId: number, record: Omit<BillingProviderRecord, 'shop_id' | 'updated_at'>): Promise<void>;
  listBillingProviders(): Promise<BillingProviderRecord[]>;
}

/** A shop's billing provider as stored: the API token sealed with REBOUND_SECRET_KEY. */
export interface BillingProviderRecord {
  shop_id: number;
  type: BillingProviderType;
  base_url: string | null;
  api_version: string | null;
  api_token: string | null;
  updated_at: number;
}

export interface BillingProviderTables {
  billing_providers: {
    shop_id: number;
    type: string;
    base_url: string | null;
    api_version: string | null;
    api_token: string | null;
    updated_at: number;
  };
}

/** A shop's billing provider settings (the idempotency keys of its writes: idempotency.ts). */
export function billingProviderMethods(db: Kysely<Database>): BillingProviderStore {
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
