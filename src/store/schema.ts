import type { CatalogTables } from './kysely/catalog.js';
import type { CommerceTables } from './kysely/commerce.js';
import type { EventTables } from './kysely/events.js';
import type { ExperimentTables } from './kysely/experiments.js';
import type { ServingTables } from './kysely/product-serving.js';
import type { RulesetTables } from './kysely/rulesets.js';
import type { SettingTables } from './kysely/settings.js';
import type { ShopTables } from './kysely/shops.js';
import type { TrackingTables } from './kysely/tracking.js';
import type { WidgetTables } from './kysely/widgets.js';
import type { PlatformTables } from './platform-schema.js';

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
    CommerceTables,
    RulesetTables,
    WidgetTables,
    EventTables,
    TrackingTables,
    ExperimentTables,
    PlatformTables {
  billing_customers: DocRow;
  billing_addresses: DocRow & { customer_id: number };
  billing_subscriptions: DocRow & { customer_id: number; address_id: number };
  billing_charges: DocRow & { customer_id: number; address_id: number };
  billing_onetimes: DocRow & { address_id: number };
  billing_orders: DocRow & { charge_id: number };
  campaigns: {
    shop_id: number;
    id: number;
    name: string;
    discount_code: string | null;
    created_at: number;
    max_claims_per_customer: number;
  };
  campaign_claims: { shop_id: number; campaign_id: number; customer_id: number; claims: number; updated_at: number };
  billing_providers: {
    shop_id: number;
    type: string;
    base_url: string | null;
    api_version: string | null;
    api_token: string | null;
    updated_at: number;
  };
  campaign_counts: { shop_id: number; campaign_id: number; tk: string; kind: string; count: number };
  idempotency_keys: {
    shop_id: number;
    key: string;
    request_hash: string;
    status: number;
    response: string;
    created_at: number;
  };
  shop_webhooks: {
    shop_id: number;
    webhook_id: string;
    seq: number;
    topic: string;
    payload: string;
    received_at: number;
    applied_at: number | null;
    outcome: string | null;
  };
  webhook_receipts: { shop_id: number; source: string; webhook_id: string; received_at: number };
}

/** A ledger row: the document as JSON beside the columns queries filter on. */
export interface DocRow {
  shop_id: number;
  id: number;
  document: string;
  updated_at: number;
}
