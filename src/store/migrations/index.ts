import type { Migration, MigrationProvider } from 'kysely';
import * as init from './2026_11_22_0001_init.js';
import * as rulesets from './2026_11_22_0002_rulesets.js';
import * as events from './2026_11_22_0003_events.js';
import * as shopSettings from './2026_11_22_0004_shop_settings.js';
import * as billing from './2026_11_22_0005_billing.js';
import * as shopWebhooks from './2026_11_22_0006_shop_webhooks.js';
import * as billingProvider from './2026_11_23_0010_billing_provider.js';
import * as tracking from './2026_11_23_0030_tracking.js';
import * as experiments from './2026_11_23_0031_experiments.js';
import * as trackOnce from './2026_11_25_0100_track_once.js';
import * as trackCartToken from './2026_11_25_0250_track_cart_token.js';
import * as platform from './2026_11_25_0300_platform.js';
import * as productServing from './2026_11_25_0400_product_serving.js';
import * as widgets from './2026_11_25_0600_widgets.js';
import * as servingDeflated from './2026_11_26_0200_serving_deflated.js';
import * as orderLinesCancelled from './2026_11_27_0300_order_lines_cancelled.js';
import * as shopSnapshots from './2026_11_28_0100_shop_snapshots.js';
import * as eventCountsKeyed from './2026_11_29_0100_event_counts_keyed.js';
import * as eventTotals from './2026_11_29_0200_event_totals.js';
import * as erasures from './2026_11_30_0100_erasures.js';
import * as erasedIdentities from './2026_12_02_0100_erased_identities.js';
import * as webhookRetries from './2026_12_03_0100_webhook_retries.js';
import * as appliedWebhookBodies from './2026_12_04_0100_applied_webhook_bodies.js';
import * as billingCustomerOwner from './2026_12_04_0200_billing_customer_owner.js';
import * as customerFormerEmails from './2026_11_30_0200_customer_former_emails.js';
import * as formerEmailsLowered from './2026_12_01_0100_former_emails_lowered.js';

/** Every migration, in order. Names are frozen once released. */
const migrations: Record<string, Migration> = {
  '2026_11_22_0001_init': init,
  '2026_11_22_0002_rulesets': rulesets,
  '2026_11_22_0003_events': events,
  '2026_11_22_0004_shop_settings': shopSettings,
  '2026_11_22_0005_billing': billing,
  '2026_11_22_0006_shop_webhooks': shopWebhooks,
  '2026_11_23_0010_billing_provider': billingProvider,
  '2026_11_23_0030_tracking': tracking,
  '2026_11_23_0031_experiments': experiments,
  '2026_11_25_0100_track_once': trackOnce,
  '2026_11_25_0250_track_cart_token': trackCartToken,
  '2026_11_25_0300_platform': platform,
  '2026_11_25_0400_product_serving': productServing,
  '2026_11_25_0600_widgets': widgets,
  '2026_11_26_0200_serving_deflated': servingDeflated,
  '2026_11_27_0300_order_lines_cancelled': orderLinesCancelled,
  '2026_11_28_0100_shop_snapshots': shopSnapshots,
  '2026_11_29_0100_event_counts_keyed': eventCountsKeyed,
  '2026_11_29_0200_event_totals': eventTotals,
  '2026_11_30_0100_erasures': erasures,
  '2026_11_30_0200_customer_former_emails': customerFormerEmails,
  '2026_12_01_0100_former_emails_lowered': formerEmailsLowered,
  '2026_12_02_0100_erased_identities': erasedIdentities,
  '2026_12_03_0100_webhook_retries': webhookRetries,
  '2026_12_04_0100_applied_webhook_bodies': appliedWebhookBodies,
  '2026_12_04_0200_billing_customer_owner': billingCustomerOwner,
};

/** Migrations compiled into the build, so no directory has to be found at run time. */
export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
