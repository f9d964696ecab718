import { sql, type Kysely, type Transaction } from 'kysely';
import type { Campaign, CampaignCounter } from '../../domain/billing/types.js';
import { time } from '../codec.js';
import type { Database } from '../schema.js';
import { nextCounter } from './shops.js';

/** Reactivation campaigns: their counters per tracking key and their claims per billing customer. */
export interface CampaignStore {
  createCampaign(
    shopId: number,
    campaign: { name: string; discount_code: string | null; max_claims_per_customer: number },
  ): Promise<Campaign>;
  getCampaign(shopId: number, id: number): Promise<Campaign | null>;
  /** The shop's campaigns, oldest first. */
  listCampaigns(shopId: number): Promise<Campaign[]>;
  /** Changes a campaign; null when there is no such campaign. */
  updateCampaign(
    shopId: number,
    id: number,
    patch: Partial<Pick<Campaign, 'name' | 'discount_code' | 'max_claims_per_customer'>>,
  ): Promise<Campaign | null>;
  countCampaign(shopId: number, campaignId: number, tk: string, counter: CampaignCounter, by: number): Promise<void>;
  campaignCounts(
    shopId: number,
    campaignId: number,
  ): Promise<{ tk: string; counter: CampaignCounter; count: number }[]>;
  /** Every campaign's counters of a shop, summed over tracking keys. */
  campaignTotals(shopId: number): Promise<{ campaign_id: number; counter: CampaignCounter; count: number }[]>;
  /** Takes one of a customer's claims on a campaign atomically; false when all `max` are taken. */
  claimCampaign(shopId: number, campaignId: number, customerId: number, max: number): Promise<boolean>;
  /** Gives a claim back (the reactivation it was taken for failed). */
  releaseCampaignClaim(shopId: number, campaignId: number, customerId: number): Promise<void>;
  campaignClaims(shopId: number, campaignId: number, customerId: number): Promise<number>;
}

export interface CampaignTables {
  campaigns: {
    shop_id: number;
    id: number;
    name: string;
    discount_code: string | null;
    created_at: number;
    max_claims_per_customer: number;
  };
  campaign_claims: { shop_id: number; campaign_id: number; customer_id: number; claims: number; updated_at: number };
  campaign_counts: { shop_id: number; campaign_id: number; tk: string; kind: string; count: number };
}

type Db = Kysely<Database> | Transaction<Database>;

/** Reactivation campaigns: their counters per tracking key and their claims per billing customer. */
export function campaignMethods(db: Kysely<Database>): CampaignStore {
  return {
    async createCampaign(shopId, campaign) {
      return db.transaction().execute(async (trx) => {
        const id = await nextCounter(trx, shopId, 'campaigns');
        const now = Date.now();
        await trx
          .insertInto('campaigns')
          .values({
            shop_id: shopId,
            id,
            name: campaign.name,
            discount_code: campaign.discount_code,
            max_claims_per_customer: campaign.max_claims_per_customer,
            created_at: now,
          })
          .execute();
        return {
          id,
          name: campaign.name,
          discount_code: campaign.discount_code,
          max_claims_per_customer: campaign.max_claims_per_customer,
          created_at: time.fromDb(now),
        };
      });
    },
    async getCampaign(shopId, id) {
      const row = await db
        .selectFrom('campaigns')
        .selectAll()
        .where('shop_id', '=', shopId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? campaignOf(row) : null;
    },
    async listCampaigns(shopId) {
      const rows = await db.selectFrom('campaigns').selectAll().where('shop_id', '=', shopId).orderBy('id').execute();
      return rows.map(campaignOf);
    },
    async updateCampaign(shopId, id, patch) {
      const values: Partial<Database['campaigns']> = {};
      if (patch.name !== undefined) values.name = patch.name;
      if (patch.discount_code !== undefined) values.discount_code = patch.discount_code;
      if (patch.max_claims_per_customer !== undefined) values.max_claims_per_customer = patch.max_claims_per_customer;
      if (Object.keys(values).length > 0)
        await db.updateTable('campaigns').set(values).where('shop_id', '=', shopId).where('id', '=', id).execute();
      const row = await db
        .selectFrom('campaigns')
        .selectAll()
        .where('shop_id', '=', shopId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? campaignOf(row) : null;
    },
    countCampaign: (shopId, campaignId, tk, counter, by) => count(db, shopId, campaignId, tk, counter, by),
    async campaignCounts(shopId, campaignId) {
      const rows = await db
        .selectFrom('campaign_counts')
        .select(['tk', 'kind', 'count'])
        .where('shop_id', '=', shopId)
        .where('campaign_id', '=', campaignId)
        .execute();
      return rows.map((r) => ({ tk: r.tk, counter: r.kind as CampaignCounter, count: Number(r.count) }));
    },
    async campaignTotals(shopId) {
      const rows = await db
        .selectFrom('campaign_counts')
        .select(['campaign_id', 'kind', (eb) => eb.fn.sum<number>('count').as('count')])
        .where('shop_id', '=', shopId)
        .groupBy(['campaign_id', 'kind'])
        .execute();
      return rows.map((r) => ({
        campaign_id: Number(r.campaign_id),
        counter: r.kind as CampaignCounter,
        count: Number(r.count),
      }));
    },
    async claimCampaign(shopId, campaignId, customerId, max) {
      // One statement on both databases: the update only happens below the limit, so two
      // concurrent claims can never both take the last one.
      const row = await db
        .insertInto('campaign_claims')
        .values({
          shop_id: shopId,
          campaign_id: campaignId,
          customer_id: customerId,
          claims: 1,
          updated_at: Date.now(),
        })
        .onConflict((oc) =>
          oc
            .columns(['shop_id', 'campaign_id', 'customer_id'])
            .doUpdateSet({ claims: sql`campaign_claims.claims + 1`, updated_at: Date.now() })
            .where('campaign_claims.claims', '<', max),
        )
        .returning('claims')
        .executeTakeFirst();
      return row !== undefined && Number(row.claims) <= max;
    },
    async releaseCampaignClaim(shopId, campaignId, customerId) {
      await db
        .updateTable('campaign_claims')
        .set({ claims: sql`claims - 1`, updated_at: Date.now() })
        .where('shop_id', '=', shopId)
        .where('campaign_id', '=', campaignId)
        .where('customer_id', '=', customerId)
        .where('claims', '>', 0)
        .execute();
    },
    async campaignClaims(shopId, campaignId, customerId) {
      const row = await db
        .selectFrom('campaign_claims')
        .select('claims')
        .where('shop_id', '=', shopId)
        .where('campaign_id', '=', campaignId)
        .where('customer_id', '=', customerId)
        .executeTakeFirst();
      return Number(row?.claims ?? 0);
    },
  };
}

function campaignOf(row: Database['campaigns']): Campaign {
  return {
    id: Number(row.id),
    name: row.name,
    discount_code: row.discount_code,
    max_claims_per_customer: Number(row.max_claims_per_customer ?? 1),
    created_at: time.fromDb(row.created_at),
  };
}

async function count(
  db: Db,
  shopId: number,
  campaignId: number,
  tk: string,
  counter: CampaignCounter,
  by: number,
): Promise<void> {
  await db
    .insertInto('campaign_counts')
    .values({ shop_id: shopId, campaign_id: campaignId, tk, kind: counter, count: by })
    .onConflict((oc) =>
      oc.columns(['shop_id', 'campaign_id', 'tk', 'kind']).doUpdateSet({ count: sql`campaign_counts.count + ${by}` }),
    )
    .execute();
}
