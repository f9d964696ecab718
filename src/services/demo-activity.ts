import type { DemoData } from '../../demo/generate.js';
import { generateDemoTraffic } from '../../demo/tracking.js';
import { rulesetSource } from '../domain/attribution/source.js';
import type { Campaign } from '../domain/billing/types.js';
import type { ReactivationContext, ReactivationService } from './billing/reactivation.js';
import type { CatalogService } from './catalog.js';
import type { ExperimentsService } from './experiments/index.js';
import type { RulesetsService } from './rulesets.js';
import type { ShopsService } from './shops.js';
import type { TrackingService } from './tracking.js';

const DAY_MS = 86_400_000;

export interface DemoActivityDeps {
  shops: ShopsService;
  catalog: CatalogService;
  rulesets: RulesetsService;
  experiments: ExperimentsService;
  tracking: TrackingService;
  reactivation: ReactivationService;
}

/**
 * What makes the demo's attribution and campaign pages believable on first start: a running
 * experiment with two weeks of tracked widget traffic and the orders it led to (attributed by the
 * same import as any order), and reactivation links that were generated, opened and claimed
 * through the billing services a storefront would call.
 */
export async function seedDemoActivity(
  deps: DemoActivityDeps,
  shopId: number,
  data: DemoData,
  options: { now: Date; seed?: number; campaign: Campaign | null },
): Promise<Record<string, number>> {
  const [upsell, , , crossSell] = await deps.rulesets.list(shopId);
  let counts: Record<string, number> = {};
  if (upsell && crossSell) {
    const days = 14;
    const arms = [
      { name: 'A', ruleset_id: upsell.id, weight: 1 },
      { name: 'B', ruleset_id: crossSell.id, weight: 1 },
    ];
    const experiment = await deps.experiments.create(
      shopId,
      { name: 'Product page: hand-picked upsell vs. cross-sell by tag', ruleset_id: upsell.id, arms },
      { startedAt: options.now.getTime() - days * DAY_MS - 3_600_000 },
    );
    const traffic = generateDemoTraffic(data, {
      now: options.now,
      days,
      visitorsPerDay: 160,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      experiment: {
        id: experiment.id,
        arms,
        sources: [rulesetSource(upsell.id, upsell.version, 'A'), rulesetSource(crossSell.id, crossSell.version, 'B')],
        clickRates: [0.08, 0.11],
      },
      list: { source: 'list:trending_products' },
    });
    await deps.experiments.importVisitors(shopId, traffic.visitors);
    await deps.tracking.importEvents(shopId, traffic.events);
    await deps.catalog.upsertOrders(shopId, traffic.orders);
    counts = {
      'experiment visitors': traffic.visitors.length,
      'tracked events': traffic.events.length,
      'attributed orders': traffic.orders.length,
    };
  }
  if (options.campaign) counts.reactivations = await claimSomeLinks(deps, shopId, options.campaign);
  return counts;
}

const linkQuery = (link: string) => Object.fromEntries(new URL(link, 'http://demo.invalid').searchParams);

/** Reactivation links for cancelled subscribers, as two mailings: most opened, some claimed. */
async function claimSomeLinks(deps: DemoActivityDeps, shopId: number, campaign: Campaign): Promise<number> {
  const shop = await deps.shops.requireShopById(shopId);
  let claimed = 0;
  // Customer 80000 stays a candidate: the start-up message's reactivation example uses it.
  for (let i = 1; i <= 28; i++) {
    const customerId = 80_000 + i;
    const tk = i % 2 === 0 ? 'newsletter-winter' : 'winback-email-2';
    let context: ReactivationContext;
    try {
      context = await deps.reactivation.context(shop, {
        customerId,
        subscriptionIds: 'all',
        campaignId: campaign.id,
        discountCode: campaign.discount_code,
        tk,
        live: true,
      });
    } catch {
      continue; // a customer the generated ledger does not have
    }
    const offered = context.billing_subscriptions;
    if (offered.length === 0) continue;
    if (i % 5 === 4) continue; // never opened
    await deps.reactivation.followLink(linkQuery(context.service_reactivate_all_link), 'view');
    // A claim takes back one subscription and leaves the others cancelled: the subscriber stays a
    // candidate, so a link made for them later still offers something (never "Link not valid").
    if (i % 3 === 0 && offered.length >= 2) {
      const outcome = await deps.reactivation.followLink(linkQuery(offered[0]!.service_reactivate_link), 'confirm');
      if (outcome.kind === 'page' && outcome.state === 'reactivated') claimed++;
    }
  }
  return claimed;
}
