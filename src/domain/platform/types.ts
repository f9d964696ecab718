/** The storefront platform connection as the admin API shows it (docs/api.md, "Connecting the platform"). */

export type PlatformStatus = 'connected' | 'disconnected' | 'failing';
export type SyncMode = 'full' | 'reconcile';
export type SyncPhase = 'queued' | 'exporting' | 'importing' | 'subscribing' | 'done' | 'failed';

export interface SyncCounts {
  products: number;
  collections: number;
  customers: number;
  orders: number;
}

/** One sync run: its progress is persisted as it goes, in this exact shape. */
export interface PlatformSync {
  id: number;
  mode: SyncMode;
  phase: SyncPhase;
  counts: SyncCounts;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}

/** A webhook subscription Rebound made on the platform (its GID, so a disconnect can remove it). */
export interface PlatformWebhook {
  topic: string;
  id: string;
}

export interface PlatformView {
  shop_domain: string;
  api_version: string;
  api_url: string;
  access_token_set: boolean;
  status: PlatformStatus;
  sync: PlatformSync | null;
  last_reconciled_at: string | null;
  webhooks: string[];
}

export const emptyCounts = (): SyncCounts => ({ products: 0, collections: 0, customers: 0, orders: 0 });

/** A sync that has not ended yet: a second request joins it instead of starting another. */
export const isRunning = (sync: PlatformSync | null): boolean =>
  sync !== null && sync.phase !== 'done' && sync.phase !== 'failed';
