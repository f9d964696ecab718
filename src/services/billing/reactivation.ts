import { shopToday } from '../../domain/billing/dates.js';
import { LINK_PARAMS, LINK_TTL_MS, signLink, verifyLink, type LinkCheck } from '../../domain/billing/links.js';
import type { BillingCustomer, BillingSubscription, Campaign } from '../../domain/billing/types.js';
import { InvalidInputError, NotFoundError } from '../../domain/errors.js';
import type { Shop } from '../../domain/shop.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import type { CampaignStore } from '../../store/kysely/campaigns.js';
import type { ShopStore } from '../../store/kysely/shops.js';
import { loadCatalog } from '../../indexes/catalog-lookup.js';
import type { ShopCatalog } from '../../indexes/shop-catalog.js';
import type { ReactivateParams } from './params.js';
import type { BillingProvider, ReactivationResult } from './provider.js';
import type { BillingProviders } from './providers.js';

/** A subscription of the reactivation context: the public API's shape with its link and catalog product. */
export type ContextSubscription = BillingSubscription & {
  service_reactivate_link: string;
  shop_product: unknown;
  shop_variant: unknown;
};

/** `GET /api/v1/billing/reactivate`'s `data`. */
export interface ReactivationContext {
  service_reactivate_all_link: string;
  billing_customer: BillingCustomer;
  billing_subscriptions: ContextSubscription[];
}

/** A subscription as the reactivation page shows it. */
export interface PageSubscription {
  subscription: BillingSubscription;
  image: string | null;
}

/**
 * What following a link came to. `reactivated`: this request (or an earlier one) made the
 * subscriptions active; `already_claimed`: the customer used up the campaign's claims; `nothing`: the link
 * was made when none of the customer's subscriptions was inactive.
 */
export type LinkOutcome =
  | { kind: 'refused'; reason: LinkCheck | 'unknown' }
  | {
      kind: 'page';
      shop: Shop;
      customer: BillingCustomer;
      subscriptions: PageSubscription[];
      live: boolean;
      link: string;
      state: 'offer' | 'reactivated' | 'already_claimed' | 'nothing';
      discount: ReactivationResult['discount'];
    };

/** How a link was asked for: `view` = a GET answered with the page, `peek` = HEAD, `confirm` = POST. */
export type LinkIntent = 'view' | 'peek' | 'confirm';

const ACTIVE = 'ACTIVE';

/** Reactivation context, signed one-click links, and what a link does (docs/billing.md). */
export function createReactivationService(deps: {
  providers: Pick<BillingProviders, 'forShop'>;
  store: CampaignStore & ShopStore;
  catalog: CatalogIndex;
  publicUrl: string;
  clock?: () => number;
}) {
  const { providers, store, catalog } = deps;
  const clock = deps.clock ?? Date.now;

  function linkFor(shop: Shop, params: ReactivateParams, subscriptionIds: number[], now: number): string {
    const query: Record<string, string> = {
      merchant_token: shop.handle,
      billing_customer_id: String(params.customerId),
      billing_subscription_ids: subscriptionIds.join(','),
      request_type: params.live ? 'live' : 'preview',
      expires: String(Math.floor((now + LINK_TTL_MS) / 1000)),
    };
    if (params.discountCode) query.billing_discount_code = params.discountCode;
    if (params.tk) query.tk = params.tk;
    if (params.campaignId !== null) query.campaign_id = String(params.campaignId);
    query.sig = signLink(query, shop.signing_secret);
    return `${shop.public_url ?? deps.publicUrl}/billing/reactivate?${new URLSearchParams(query).toString()}`;
  }

  /** The product and variant of a subscription from the catalog index (null when gone). */
  function catalogProduct(
    shopCatalog: ShopCatalog,
    sub: BillingSubscription,
  ): { shop_product: unknown; shop_variant: unknown } {
    const product = shopCatalog.products.get(sub.shop_product_id);
    const index = product?.variants.findIndex((v) => v.id === sub.shop_variant_id) ?? -1;
    return {
      shop_product: product ? (JSON.parse(product.json.plain.toString('utf8')) as unknown) : null,
      shop_variant: product && index >= 0 ? (JSON.parse(product.json.variants[index]!) as unknown) : null,
    };
  }

  /**
   * Activates the cancelled subscriptions among `subs`. A campaign's claim is taken first and
   * given back if the provider fails, so a failure never uses up the customer's claim.
   */
  async function reactivate(
    shop: Shop,
    provider: BillingProvider,
    customerId: number,
    subs: BillingSubscription[],
    discountCode: string | null,
    campaign: { campaign: Campaign; tk: string } | null,
  ) {
    const cancelled = subs.filter((s) => s.status !== ACTIVE);
    // Already active: nothing written or counted.
    if (cancelled.length === 0) return { state: 'reactivated' as const, discount: null, updated: null };
    if (
      campaign &&
      !(await store.claimCampaign(shop.id, campaign.campaign.id, customerId, campaign.campaign.max_claims_per_customer))
    ) {
      return { state: 'already_claimed' as const, discount: null, updated: null };
    }
    const now = clock();
    let result: ReactivationResult;
    try {
      result = await provider.reactivate(shop.id, {
        customerId,
        subscriptions: cancelled,
        discountCode,
        today: shopToday(now, shop.timezone),
        now,
      });
    } catch (error) {
      if (campaign) await store.releaseCampaignClaim(shop.id, campaign.campaign.id, customerId);
      throw error;
    }
    if (campaign) await store.countCampaign(shop.id, campaign.campaign.id, campaign.tk, 'reactivations', 1);
    return { state: 'reactivated' as const, discount: result.discount, updated: result.subscriptions };
  }

  return {
    /** The context of `GET /api/v1/billing/reactivate`: the customer, the chosen subscriptions and signed links. */
    async context(shop: Shop, asked: ReactivateParams): Promise<ReactivationContext> {
      const provider = await providers.forShop(shop.id);
      const customer = await provider.customer(shop.id, asked.customerId);
      if (!customer) throw new NotFoundError(`Billing customer ${asked.customerId} not found.`);
      const campaign = asked.campaignId === null ? null : await store.getCampaign(shop.id, asked.campaignId);
      if (asked.campaignId !== null && !campaign) throw new NotFoundError(`Campaign ${asked.campaignId} not found.`);
      // The campaign's discount code goes into its links unless the request names one.
      const params = { ...asked, discountCode: asked.discountCode ?? campaign?.discount_code ?? null };
      const all = await provider.subscriptions(shop.id, customer.id);
      let chosen: BillingSubscription[];
      if (params.subscriptionIds === 'all') {
        chosen = all.filter((s) => s.status !== ACTIVE);
      } else {
        chosen = params.subscriptionIds.map((id) => {
          const sub = all.find((s) => s.id === id);
          if (!sub)
            throw new InvalidInputError(
              'billing_subscription_ids',
              `Parameter billing_subscription_ids: subscription ${id} is not one of billing customer ${customer.id}'s.`,
            );
          return sub;
        });
      }
      const now = clock();
      const shopCatalog = await loadCatalog(catalog, shop.id);
      const subscriptions = chosen.map((sub) => ({
        ...sub,
        service_reactivate_link: linkFor(shop, params, [sub.id], now),
        ...catalogProduct(shopCatalog, sub),
      }));
      const allLink = linkFor(
        shop,
        params,
        chosen.map((s) => s.id),
        now,
      );
      if (params.campaignId !== null)
        await store.countCampaign(shop.id, params.campaignId, params.tk ?? '', 'links_generated', chosen.length + 1);
      return { service_reactivate_all_link: allLink, billing_customer: customer, billing_subscriptions: subscriptions };
    },

    /**
     * What a link does: a view shows the page and writes nothing (unless the shop opted into
     * reactivate-on-GET); a confirm on a live link reactivates. Only the link's own parameters
     * count: anything a mail tool appended is ignored. Tampered or expired links change nothing.
     */
    async followLink(query: Readonly<Record<string, string>>, intent: LinkIntent): Promise<LinkOutcome> {
      const link: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const name of [...LINK_PARAMS, 'sig']) if (query[name] !== undefined) link[name] = query[name]!;
      const shop = link.merchant_token ? await store.getShopByHandle(link.merchant_token) : null;
      if (!shop) return { kind: 'refused', reason: 'unknown' };
      const check = verifyLink(link, shop.signing_secret, clock());
      if (check !== 'valid') return { kind: 'refused', reason: check };
      const provider = await providers.forShop(shop.id);
      const customerId = Number(link.billing_customer_id);
      const customer = await provider.customer(shop.id, customerId);
      const ids = new Set((link.billing_subscription_ids || null)?.split(',').map(Number));
      const subs = (await provider.subscriptions(shop.id, customerId)).filter((s) => ids.has(s.id));
      if (!customer || (ids.size > 0 && subs.length === 0)) return { kind: 'refused', reason: 'unknown' };
      const live = link.request_type === 'live';
      // A link made when the customer had nothing to reactivate (`all` chose none): a page that says so.
      if (ids.size === 0)
        return { kind: 'page', shop, customer, live, state: 'nothing', discount: null, link: '', subscriptions: [] };
      const tk = link.tk ?? '';
      const campaign = link.campaign_id ? await store.getCampaign(shop.id, Number(link.campaign_id)) : null;
      if (intent === 'view' && campaign) await store.countCampaign(shop.id, campaign.id, tk, 'pages_opened', 1);

      let state: 'offer' | 'reactivated' | 'already_claimed' = 'offer';
      let discount: ReactivationResult['discount'] = null;
      let current = subs;
      const claimedOut =
        live &&
        campaign !== null &&
        (await store.campaignClaims(shop.id, campaign.id, customerId)) >= campaign.max_claims_per_customer;
      // A customer who used up the campaign's claims sees so; one whose link is already fully
      // active (a repeated click) sees the same success page as the first time.
      if (claimedOut) state = subs.every((s) => s.status === ACTIVE) ? 'reactivated' : 'already_claimed';
      else if (live && (intent === 'confirm' || (intent === 'view' && shop.settings.reactivate_on_get === true))) {
        const done = await reactivate(
          shop,
          provider,
          customerId,
          subs,
          link.billing_discount_code ?? null,
          campaign ? { campaign, tk } : null,
        );
        state = done.state;
        discount = done.discount;
        const updated = done.updated;
        if (updated) current = subs.map((s) => updated.find((u) => u.id === s.id) ?? s);
      }
      const shopCatalog = await catalog.ensure(shop.id);
      return {
        kind: 'page',
        shop,
        customer,
        live,
        state,
        discount,
        link: `/billing/reactivate?${new URLSearchParams(link).toString()}`,
        subscriptions: current.map((subscription) => ({
          subscription,
          image: imageOf(shopCatalog?.products.get(subscription.shop_product_id)?.json.tail),
        })),
      };
    },
  };
}

/** The primary image's src, read from the pre-serialized tail of a product. */
function imageOf(tail: string | undefined): string | null {
  if (!tail) return null;
  return /"image":\{[^}]*?"src":"((?:[^"\\]|\\.)*)"/.exec(tail)?.[1]?.replace(/\\\//g, '/') ?? null;
}

export type ReactivationService = ReturnType<typeof createReactivationService>;
