import { asErasureLeftThem } from './erased-ledger.js';
import type { PrivacyStore } from '../../store/kysely/privacy.js';
import {
  normalizeAddress,
  normalizeCharge,
  normalizeCustomer,
  normalizeSubscription,
} from '../../domain/billing/normalize.js';
import type { Campaign, CampaignCounter, LedgerKind } from '../../domain/billing/types.js';
import { NotFoundError } from '../../domain/errors.js';
import {
  BillingAddressInput,
  BillingChargeInput,
  BillingCustomerInput,
  BillingSubscriptionInput,
  CampaignInput,
  CampaignPatchInput,
} from '../../domain/inputs/billing.js';
import { validateDocument, validateRows } from '../../domain/inputs/validate.js';
import type { BillingStore, LedgerDoc } from '../../store/kysely/billing.js';
import type { CampaignStore } from '../../store/kysely/campaigns.js';

const noCounts = (): Record<CampaignCounter, number> => ({ links_generated: 0, pages_opened: 0, reactivations: 0 });

/** Turns validated rows of one ledger kind into stored documents. */
export function ledgerDocs(kind: LedgerKind, body: unknown, now: number): LedgerDoc[] {
  switch (kind) {
    case 'customers':
      return validateRows(BillingCustomerInput, body, 'billing customers', 'id').map((r) => normalizeCustomer(r, now));
    case 'addresses':
      return validateRows(BillingAddressInput, body, 'billing addresses', 'id').map((r) => normalizeAddress(r, now));
    case 'subscriptions':
      return validateRows(BillingSubscriptionInput, body, 'billing subscriptions', 'id').map((r) =>
        normalizeSubscription(r, now),
      );
    case 'charges':
      return validateRows(BillingChargeInput, body, 'billing charges', 'id').map((r) => normalizeCharge(r, now));
  }
}

/** Admin loading of the billing ledger and campaigns (docs/billing.md). */
export function createLedgerService(deps: {
  store: BillingStore &
    CampaignStore &
    Pick<PrivacyStore, 'erasures' | 'erasedDigests' | 'recordErasedBillingCustomers'>;
  clock?: () => number;
}) {
  const { store } = deps;
  const clock = deps.clock ?? Date.now;
  return {
    async upsert(shopId: number, kind: LedgerKind, body: unknown): Promise<{ upserted: number }> {
      const docs = ledgerDocs(kind, body, clock());
      // An old export of an erased customer's documents is stored as the erasure left them.
      await asErasureLeftThem(store, shopId, kind, docs);
      await store.upsertLedger(shopId, kind, docs);
      return { upserted: docs.length };
    },

    createCampaign(shopId: number, body: unknown): Promise<Campaign> {
      const input = validateDocument(CampaignInput, body, 'campaign');
      return store.createCampaign(shopId, {
        name: input.name,
        discount_code: input.discount_code ?? null,
        max_claims_per_customer: input.max_claims_per_customer ?? 1,
      });
    },

    /** Changes a campaign's name, discount code or claim limit; claims already made stay. */
    async updateCampaign(shopId: number, id: number, body: unknown): Promise<Campaign> {
      const patch = validateDocument(CampaignPatchInput, body, 'campaign');
      const campaign = await store.updateCampaign(shopId, id, patch);
      if (!campaign) throw new NotFoundError(`Campaign ${id} not found.`);
      return campaign;
    },

    async requireCampaign(shopId: number, id: number): Promise<Campaign> {
      const campaign = await store.getCampaign(shopId, id);
      if (!campaign) throw new NotFoundError(`Campaign ${id} not found.`);
      return campaign;
    },

    /** Links generated, pages opened and reactivations, in total and per tracking key. */
    async stats(shopId: number, id: number) {
      await this.requireCampaign(shopId, id);
      const total = noCounts();
      // Keyed by client-chosen tracking keys: a null prototype, so "__proto__" is just a key.
      const byTk = Object.create(null) as Record<string, Record<CampaignCounter, number>>;
      for (const { tk, counter, count } of await store.campaignCounts(shopId, id)) {
        total[counter] += count;
        if (tk !== '') {
          byTk[tk] ??= noCounts();
          byTk[tk][counter] += count;
        }
      }
      return { ...total, by_tk: byTk };
    },

    /** Every campaign of the shop, oldest first, with its counters in total (two queries). */
    async listCampaigns(shopId: number): Promise<(Campaign & { stats: Record<CampaignCounter, number> })[]> {
      const [campaigns, totals] = await Promise.all([store.listCampaigns(shopId), store.campaignTotals(shopId)]);
      const stats = new Map(campaigns.map((c) => [c.id, noCounts()]));
      for (const { campaign_id, counter, count } of totals) {
        const counts = stats.get(campaign_id);
        if (counts) counts[counter] += count;
      }
      return campaigns.map((c) => ({ ...c, stats: stats.get(c.id)! }));
    },
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
