import type { BillingProviderStore } from './kysely/billing-providers.js';
import type { BillingStore } from './kysely/billing.js';
import type { CampaignStore } from './kysely/campaigns.js';
import type { CatalogStore } from './kysely/catalog.js';
import type { CollectionPageStore } from './kysely/collection-pages.js';
import type { CommerceStore } from './kysely/commerce.js';
import type { EventStore } from './kysely/events.js';
import type { ExperimentStore } from './kysely/experiments.js';
import type { PlatformStore } from './kysely/platform.js';
import type { PrivacyStore } from './kysely/privacy.js';
import type { ServingStore } from './kysely/product-serving.js';
import type { SnapshotStore } from './kysely/snapshots.js';
import type { RulesetStore } from './kysely/rulesets.js';
import type { IdempotencyStore } from './kysely/idempotency.js';
import type { SettingStore } from './kysely/settings.js';
import type { ShopWebhookStore } from './kysely/shop-webhooks.js';
import type { ShopStore } from './kysely/shops.js';
import type { TrackingStore } from './kysely/tracking.js';
import type { WidgetStore } from './kysely/widgets.js';

/**
 * The one storage port, in the domain's words. Every write that changes what a shop's read
 * model holds moves that shop's `data_version`, so every node can notice it cheaply.
 */
export interface Store
  extends SettingStore,
    ShopStore,
    CatalogStore,
    CollectionPageStore,
    ServingStore,
    SnapshotStore,
    CommerceStore,
    RulesetStore,
    WidgetStore,
    EventStore,
    TrackingStore,
    ExperimentStore,
    BillingStore,
    BillingProviderStore,
    IdempotencyStore,
    CampaignStore,
    ShopWebhookStore,
    PlatformStore,
    PrivacyStore {
  /** Connection-pool figures for metrics (SQLite: one connection). */
  poolStats(): { total: number; idle: number; waiting: number };
  /**
   * Applies this version's pending migrations. `applied`: those this call applied, in order. `newer`:
   * those a newer version applied that this one does not know (it runs on their schema;
   * src/store/kysely/newer-schema.ts).
   */
  migrate(): Promise<{ applied: string[]; newer: string[] }>;
  /**
   * Start-up's writes are done: ends what only writing needs until the next write (SQLite's
   * checkpointing thread, after a last checkpoint), so a node that then only reads does not keep it.
   */
  settle(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
