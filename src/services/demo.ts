import { generateDemoShop, type DemoOptions } from '../../demo/generate.js';
import { generateDemoBilling } from '../../demo/billing.js';
import { generateDemoEvents } from '../../demo/events.js';
import { demoRulesets, upsellAnchor } from '../../demo/rulesets.js';
import type { CatalogService } from './catalog.js';
import type { LedgerService } from './billing/ledger.js';
import type { EventsService } from './events/index.js';
import type { RulesetsService } from './rulesets.js';
import type { IssuedKeys, ShopsService } from './shops.js';
import { seedDemoActivity, type DemoActivityDeps } from './demo-activity.js';

export const DEMO_HANDLE = 'demo';

export interface DemoSeedResult {
  created: boolean;
  keys: IssuedKeys | null;
  counts: Record<string, number>;
  sample: { productIds: number[]; handles: string[]; rulesetIds: number[]; vipCustomerId: number | null };
}

/** What the running server (and the CLI) hand to the demo seed: the composed services. */
type ComposedForDemo = DemoActivityDeps & {
  catalog: CatalogService;
  events: EventsService;
  ledger: LedgerService;
};

/** Seeds the demo shop from the composed services, with its activity (the server's start and `seed-demo` alike). */
export function seedDemoFromServices(services: ComposedForDemo, publicUrl: string): Promise<DemoSeedResult> {
  const { shops, catalog, rulesets, events, ledger } = services;
  return seedDemoShop({ shops, catalog, rulesets, events, ledger, activity: services }, { publicUrl });
}

/**
 * Creates the demo shop and loads the generated data through the same services (and the
 * same validation) as the admin API. Loading into an existing demo shop is idempotent.
 */
export async function seedDemoShop(
  deps: {
    shops: ShopsService;
    catalog: CatalogService;
    rulesets: RulesetsService;
    events: EventsService;
    ledger: LedgerService;
    activity?: DemoActivityDeps;
  },
  options: DemoOptions = {},
): Promise<DemoSeedResult> {
  const data = generateDemoShop(options);
  const existing = (await deps.shops.listShops()).find((s) => s.handle === DEMO_HANDLE);
  let keys: IssuedKeys | null = null;
  let shopId: number;
  if (existing) {
    shopId = existing.id;
  } else {
    const created = await deps.shops.createShop({
      handle: DEMO_HANDLE,
      name: 'Rebound Demo Outfitters',
      timezone: 'America/New_York',
      currency: 'USD',
      scopes: ['read_markets'],
      ...(options.publicUrl ? { public_url: options.publicUrl } : {}),
    });
    shopId = created.shop.id;
    keys = created.keys;
  }
  await deps.catalog.upsertProducts(shopId, data.products);
  await deps.catalog.upsertCollections(shopId, data.collections);
  await deps.catalog.upsertCustomers(shopId, data.customers);
  await deps.catalog.upsertMarkets(shopId, data.markets);
  await deps.catalog.upsertOrders(shopId, data.orders);
  // Rulesets are created once: a refresh keeps the merchant's edits.
  const rulesetIds = existing ? (await deps.rulesets.list(shopId)).map((r) => r.id) : [];
  if (!existing)
    for (const ruleset of demoRulesets(data)) rulesetIds.push((await deps.rulesets.create(shopId, ruleset)).id);
  // Browsing history is generated once, like the rulesets.
  const events = existing
    ? []
    : generateDemoEvents(data, {
        now: options.now ?? new Date(),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
      });
  if (events.length > 0) await deps.events.importEvents(shopId, events);
  const billing = generateDemoBilling(data, { now: options.now ?? new Date() });
  for (const kind of ['customers', 'addresses', 'subscriptions', 'charges'] as const)
    await deps.ledger.upsert(shopId, kind, billing[kind]);
  const campaign = existing ? null : await deps.ledger.createCampaign(shopId, billing.campaign);
  // Experiment, tracked traffic, attributed orders and claimed links: generated once, like the events.
  const activity =
    !existing && deps.activity
      ? await seedDemoActivity(deps.activity, shopId, data, {
          now: options.now ?? new Date(),
          campaign,
          ...(options.seed !== undefined ? { seed: options.seed } : {}),
        })
      : {};
  const listable = data.products.filter(
    (p) => p.status !== 'draft' && p.published_at !== null && !String(p.tags ?? '').includes('exclude_rebound'),
  );
  return {
    created: !existing,
    keys,
    counts: {
      products: data.products.length,
      collections: data.collections.length,
      customers: data.customers.length,
      markets: data.markets.length,
      orders: data.orders.length,
      rulesets: rulesetIds.length,
      events: events.length,
      'billing customers': billing.customers.length,
      ...activity,
    },
    sample: {
      productIds: [upsellAnchor(data).id, ...listable.slice(0, 2).map((p) => p.id)],
      // Handles sold in the first market, so the country_code example shows market prices.
      handles: listable
        .filter((p) => data.markets[0]?.product_ids?.includes(p.id) ?? true)
        .slice(3, 5)
        .map((p) => p.handle),
      rulesetIds,
      // A customer the catch-all ruleset shows the gift collection to, by their tag.
      vipCustomerId: data.customers.find((c) => c.tags?.includes('vip'))?.id ?? null,
    },
  };
}
