import type { PlatformStatus, PlatformSync, PlatformWebhook, SyncMode, SyncPhase } from '../domain/platform/types.js';

/** A shop's platform connection as stored: the access token sealed with REBOUND_SECRET_KEY. */
export interface PlatformConnectionRecord {
  shop_id: number;
  shop_domain: string;
  api_version: string;
  api_url: string;
  access_token: string | null;
  status: PlatformStatus;
  sync: PlatformSync | null;
  /** Consecutive refusals of the token; three mark the connection failing. */
  refusals: number;
  last_reconciled_at: number | null;
  webhooks: PlatformWebhook[];
  updated_at: number;
}

export type PlatformConnectionPatch = Partial<Omit<PlatformConnectionRecord, 'shop_id' | 'updated_at'>>;

/** A line of a bulk export, kept until its parent's children have all arrived. */
export interface StagedLine {
  seq: number;
  gid: string;
  parent: string | null;
  line: string;
}

export interface PrivacyRequestRecord {
  shop_id: number;
  id: string;
  kind: 'data_request' | 'redact';
  customer_id: number | null;
  received_at: number;
  /** JSON of everything stored about the customer (data requests only). */
  export: string | null;
  expires_at: number;
}

/** What an erasure removed or anonymised. */
export interface ErasureCounts {
  customers: number;
  events: number;
  track_events: number;
  orders: number;
  billing_customers: number;
}

/** Platform connection, bulk staging and privacy storage (docs/operations.md, "Privacy"). */
export interface PlatformStore {
  getPlatformConnection(shopId: number): Promise<PlatformConnectionRecord | null>;
  listPlatformConnections(): Promise<PlatformConnectionRecord[]>;
  putPlatformConnection(record: Omit<PlatformConnectionRecord, 'updated_at'>): Promise<void>;
  /**
   * Changes the given fields; with `ifSync`, only while that sync (in that mode and phase, when
   * given) is the current one: a claim, or progress that must not overwrite a successor.
   */
  updatePlatformConnection(
    shopId: number,
    patch: PlatformConnectionPatch,
    ifSync?: { id: number; mode?: SyncMode; phase?: SyncPhase },
  ): Promise<boolean>;
  /** Everything stored about one customer, for a data request. */
  customerRecords(shopId: number, customerId: number): Promise<Record<string, unknown>>;
  deletePlatformConnection(shopId: number): Promise<void>;

  stageLines(shopId: number, lines: StagedLine[]): Promise<void>;
  /** Lines without a parent, in file order, after `afterSeq`. */
  stagedRoots(shopId: number, afterSeq: number, limit: number): Promise<StagedLine[]>;
  /** Lines whose parent is one of these GIDs, in file order. */
  stagedChildren(shopId: number, parents: string[]): Promise<StagedLine[]>;
  clearStaging(shopId: number): Promise<void>;

  putPrivacyRequest(record: PrivacyRequestRecord): Promise<void>;
  /** Requests not expired at `now`, newest first. */
  listPrivacyRequests(shopId: number, now: number): Promise<PrivacyRequestRecord[]>;
  deleteExpiredPrivacyRequests(now: number): Promise<number>;
  /** Erases a customer's personal data and behaviour; their order lines stay, anonymous. */
  eraseCustomer(shopId: number, customerId: number): Promise<ErasureCounts>;
  /** Deletes every event of the shop created before `before` (epoch ms). */
  deleteEventsBefore(shopId: number, before: number): Promise<number>;
  /** Deletes the shop and everything stored for it. */
  deleteShopData(shopId: number): Promise<void>;
}
