import type { BillingProviderTables } from './kysely/billing-providers.js';
import type { BillingTables } from './kysely/billing.js';
import type { CampaignTables } from './kysely/campaigns.js';
import type { CatalogTables } from './kysely/catalog.js';
import type { CommerceTables } from './kysely/commerce.js';
import type { EventTables } from './kysely/events.js';
import type { ExperimentTables } from './kysely/experiments.js';
import type { PlatformTables } from './kysely/platform.js';
import type { PrivacyTables } from './kysely/privacy.js';
import type { ServingTables } from './kysely/product-serving.js';
import type { SnapshotTables } from './kysely/snapshots.js';
import type { RulesetTables } from './kysely/rulesets.js';
import type { IdempotencyTables } from './kysely/idempotency.js';
import type { SettingTables } from './kysely/settings.js';
import type { ShopWebhookTables } from './kysely/shop-webhooks.js';
import type { ShopTables } from './kysely/shops.js';
import type { TrackingTables } from './kysely/tracking.js';
import type { WidgetTables } from './kysely/widgets.js';

/**
 * Table shapes as Kysely sees them. Timestamps are epoch milliseconds (bigint), booleans are 0/1
 * integers and documents are JSON text, so the same queries run unchanged on SQLite and PostgreSQL;
 * the conversions live in codec.ts.
 */
export interface Database
  extends SettingTables,
    ShopTables,
    CatalogTables,
    ServingTables,
    SnapshotTables,
    CommerceTables,
    RulesetTables,
    WidgetTables,
    EventTables,
    TrackingTables,
    ExperimentTables,
    BillingTables,
    BillingProviderTables,
    IdempotencyTables,
    CampaignTables,
    ShopWebhookTables,
    PlatformTables,
    PrivacyTables {}
