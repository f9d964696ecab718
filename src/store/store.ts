import type {
  BillingCharge,
  BillingProviderType,
  BillingSubscription,
  Campaign,
  CampaignCounter,
  LedgerKind,
} from '../domain/billing/types.js';
import type { CatalogStore } from './kysely/catalog.js';
import type { CommerceStore } from './kysely/commerce.js';
import type { EventStore } from './kysely/events.js';
import type { ExperimentStore } from './kysely/experiments.js';
import type { ServingStore } from './kysely/product-serving.js';
import type { RulesetStore } from './kysely/rulesets.js';
import type { SettingStore } from './kysely/settings.js';
import type { ShopStore } from './kysely/shops.js';
import type { TrackingStore } from './kysely/tracking.js';
import type { WidgetStore } from './kysely/widgets.js';
import type { PlatformStore } from './platform-store.js';

/**
 * The one storage port, in the domain's words. Every write that changes what a shop's read
 * model holds moves that shop's `data_version`, so every node can notice it cheaply.
 */
export interface Store
  extends SettingStore,
    ShopStore,
    CatalogStore,
    ServingStore,
    CommerceStore,
    RulesetStore,
    WidgetStore,
    EventStore,
    TrackingStore,
    ExperimentStore,
    PlatformStore {
  readonly dialect: 'sqlite' | 'postgres';
  /** Connection-pool figures for metrics (SQLite: one connection). */
  poolStats(): { total: number; idle: number; waiting: number };
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;

  /** Upserts ledger documents by id; with `onlyNewer`, an older updated_at never overwrites a newer one. */
  upsertLedger(shopId: number, kind: LedgerKind, docs: LedgerDoc[], options?: { onlyNewer?: boolean }): Promise<void>;
  getLedgerDoc<T>(
    shopId: number,
    table:
      | 'billing_customers'
      | 'billing_addresses'
      | 'billing_subscriptions'
      | 'billing_charges'
      | 'billing_onetimes'
      | 'billing_orders',
    id: number,
  ): Promise<T | null>;
  listCustomerSubscriptions(shopId: number, customerId: number): Promise<BillingSubscription[]>;
  /** The earliest QUEUED charge of an address scheduled on or after a date. */
  nextQueuedCharge(shopId: number, addressId: number, fromDate: string): Promise<BillingCharge | null>;
  /** Writes reactivated subscriptions (and the address's discount) in one transaction. */
  saveReactivation(shopId: number, write: { subscriptions: LedgerDoc[]; address: LedgerDoc | null }): Promise<void>;
  /**
   * Creates a one-time purchase atomically with its idempotency key: a second request with the
   * same key gets the stored outcome, or a conflict when its parameters differ.
   */
  createOnetime(
    shopId: number,
    idempotency: { key: string; hash: string } | null,
    build: (ids: { onetime: number; charge: number; order: number; subscription?: number }) => OnetimeWrite,
    /** Also reserve a new subscription id (above every stored one): the write creates a subscription. */
    options?: { subscription?: boolean },
  ): Promise<OnetimeWriteResult>;

  /** The shop's billing provider row; null means the ledger (the default). */
  getBillingProvider(shopId: number): Promise<BillingProviderRecord | null>;
  putBillingProvider(shopId: number, record: Omit<BillingProviderRecord, 'shop_id' | 'updated_at'>): Promise<void>;
  listBillingProviders(): Promise<BillingProviderRecord[]>;
  /**
   * Takes an idempotency key for a write to a remote provider. `resumed` means an earlier request
   * with this key may have written remotely without an answer: look before writing again.
   */
  claimIdempotencyKey(shopId: number, key: string, hash: string, staleAfterMs: number): Promise<IdempotencyClaim>;
  finishIdempotencyKey(shopId: number, key: string, outcome: string): Promise<void>;
  /** Gives a key back after a failure; `mayHaveWritten` keeps it marked so the next try looks first. */
  abandonIdempotencyKey(shopId: number, key: string, mayHaveWritten: boolean): Promise<void>;

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
  /** Applies a webhook's documents once per webhook id; false when the id was seen before. */
  applyWebhook(
    shopId: number,
    source: string,
    webhookId: string,
    kind: LedgerKind,
    docs: LedgerDoc[],
  ): Promise<boolean>;

  /** Queues a storefront webhook durably; false when its id, or the platform event id given with it, was queued before. */
  enqueueShopWebhook(
    shopId: number,
    webhookId: string,
    topic: string,
    payload: string,
    eventId?: string,
  ): Promise<boolean>;
  /** The oldest webhooks not applied yet, across shops. */
  pendingShopWebhooks(
    limit: number,
  ): Promise<{ shop_id: number; webhook_id: string; topic: string; payload: string }[]>;
  markShopWebhook(shopId: number, webhookId: string, outcome: string): Promise<void>;
  /** updated_at (epoch ms) of stored products and orders, for "never older over newer". */
  updatedAt(shopId: number, kind: 'products' | 'orders' | 'collections', ids: number[]): Promise<Map<number, number>>;
}

/** A ledger document as stored: its id, owners and the time that orders competing writes. */
export interface LedgerDoc {
  id: number;
  customer_id?: number;
  address_id?: number;
  updated_at: string;
}

/** What a one-time purchase writes, built inside the transaction once ids are reserved. */
export interface OnetimeWrite {
  /** The outcome as the service describes it, stored as JSON with the idempotency key. */
  outcome: unknown;
  docs: {
    kind: 'billing_onetimes' | 'billing_charges' | 'billing_orders' | 'billing_subscriptions';
    doc: LedgerDoc & Record<string, unknown>;
  }[];
}

/**
 * What became of a keyed one-time write: done (the stored outcome JSON, `replayed` when an earlier
 * request with the key wrote it), or refused because the key holds other parameters or is in use.
 * Not the purchase's outcome (`OnetimeOutcome` of the billing services), which `outcome` encodes.
 */
export type OnetimeWriteResult =
  | { state: 'done'; outcome: string; replayed: boolean }
  | { state: 'conflict' }
  | { state: 'busy' };

export type IdempotencyClaim =
  | { state: 'claimed'; resumed: boolean }
  | { state: 'done'; outcome: string }
  | { state: 'busy' }
  | { state: 'conflict' };

/** A shop's billing provider as stored: the API token sealed with REBOUND_SECRET_KEY. */
export interface BillingProviderRecord {
  shop_id: number;
  type: BillingProviderType;
  base_url: string | null;
  api_version: string | null;
  api_token: string | null;
  updated_at: number;
}
