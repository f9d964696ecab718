import { billingTimestamp, nextIntervalDate, shopToday } from '../../domain/billing/dates.js';
import { LINK_TTL_MS, signLink, verifyLink, type LinkCheck } from '../../domain/billing/links.js';
import type { BillingAddress, BillingCustomer, BillingSubscription } from '../../domain/billing/types.js';
import { InvalidInputError, NotFoundError } from '../../domain/errors.js';
import type { Shop } from '../../domain/shop.js';
import type { CatalogIndex } from '../../indexes/catalog-index.js';
import type { Store } from '../../store/store.js';
import { loadCatalog } from '../products.js';
import type { ShopCatalog } from '../../indexes/shop-catalog.js';
import type { ReactivateParams } from './params.js';
import type { BillingProvider } from './provider.js';

/** A subscription as the reactivation page shows it. */
export interface PageSubscription {
  subscription: BillingSubscription;
  image: string | null;
}

export type LinkOutcome =
  | { kind: 'refused'; reason: LinkCheck | 'unknown' }
  | { kind: 'page'; shop: Shop; customer: BillingCustomer; subscriptions: PageSubscription[]; live: boolean; reactivated: boolean; link: string };

const ACTIVE = 'ACTIVE';

/** Reactivation context, signed one-click links, and what a link does (product.md §7). */
export function createReactivationService(deps: {
  provider: BillingProvider;
  store: Pick<Store, 'getCampaign' | 'countCampaign' | 'getShopByHandle'>;
  catalog: CatalogIndex;
  publicUrl: string;
  clock?: () => number;
}) {
  const { provider, store, catalog } = deps;
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

  /** The product and variant JSON of a subscription, from the catalog index (null when gone). */
  function catalogJson(shopCatalog: ShopCatalog, sub: BillingSubscription): { product: string; variant: string } {
    const product = shopCatalog.products.get(sub.shop_product_id);
    const index = product?.variants.findIndex((v) => v.id === sub.shop_variant_id) ?? -1;
    return { product: product ? product.json.plain.toString() : 'null', variant: product && index >= 0 ? product.json.variants[index]! : 'null' };
  }

  async function reactivate(shop: Shop, customerId: number, subs: BillingSubscription[], discountCode: string | null, conversion: { campaignId: number; tk: string } | null): Promise<boolean> {
    const cancelled = subs.filter((s) => s.status !== ACTIVE);
    if (cancelled.length === 0) return false; // already active: the same success, nothing written or counted
    const now = clock();
    const today = shopToday(now, shop.timezone);
    const updated = cancelled.map((s): BillingSubscription => ({
      ...s, status: ACTIVE, cancelled_at: null, cancellation_reason: null, cancellation_reason_comments: null,
      next_charge_scheduled_at: `${nextIntervalDate(today, s.order_interval_frequency, s.order_interval_unit)}T00:00:00`, updated_at: billingTimestamp(now),
    }));
    let address: BillingAddress | null = null;
    if (discountCode) {
      const current = await provider.address(shop.id, updated[0]!.address_id);
      if (current && current.customer_id === customerId) address = { ...current, discount_code: discountCode, updated_at: billingTimestamp(now) };
    }
    await provider.saveReactivation(shop.id, { subscriptions: updated, address, conversion });
    return true;
  }

  return {
    /** The context of `GET /api/v1/billing/reactivate`, as JSON text. */
    async context(shop: Shop, params: ReactivateParams): Promise<string> {
      const customer = await provider.customer(shop.id, params.customerId);
      if (!customer) throw new NotFoundError(`Billing customer ${params.customerId} not found.`);
      if (params.campaignId !== null && !(await store.getCampaign(shop.id, params.campaignId))) throw new NotFoundError(`Campaign ${params.campaignId} not found.`);
      const all = await provider.subscriptions(shop.id, customer.id);
      let chosen: BillingSubscription[];
      if (params.subscriptionIds === 'all') {
        chosen = all.filter((s) => s.status !== ACTIVE);
      } else {
        chosen = params.subscriptionIds.map((id) => {
          const sub = all.find((s) => s.id === id);
          if (!sub) throw new InvalidInputError('billing_subscription_ids', `Parameter billing_subscription_ids: subscription ${id} is not one of billing customer ${customer.id}'s.`);
          return sub;
        });
      }
      const now = clock();
      const shopCatalog = await loadCatalog(catalog, shop.id);
      const subs = chosen.map((sub) => {
        const { product, variant } = catalogJson(shopCatalog, sub);
        const link = linkFor(shop, params, [sub.id], now);
        return `${JSON.stringify({ ...sub, service_reactivate_link: link }).slice(0, -1)},"shop_product":${product},"shop_variant":${variant}}`;
      });
      const allLink = linkFor(shop, params, chosen.map((s) => s.id), now);
      if (params.campaignId !== null) await store.countCampaign(shop.id, params.campaignId, params.tk ?? '', 'links_generated', chosen.length + 1);
      return `{"data":{"service_reactivate_all_link":${JSON.stringify(allLink)},"billing_customer":${JSON.stringify(customer)},"billing_subscriptions":[${subs.join(',')}]}}`;
    },

    /**
     * What a link does: GET shows the page and writes nothing (unless the shop opted into
     * reactivate-on-GET); POST on a live link reactivates. Tampered or expired links change nothing.
     */
    async followLink(query: Record<string, string>, method: 'GET' | 'POST'): Promise<LinkOutcome> {
      const shop = query.merchant_token ? await store.getShopByHandle(query.merchant_token) : null;
      if (!shop) return { kind: 'refused', reason: 'unknown' };
      const check = verifyLink(query, shop.signing_secret, clock());
      if (check !== 'valid') return { kind: 'refused', reason: check };
      const customerId = Number(query.billing_customer_id);
      const customer = await provider.customer(shop.id, customerId);
      const ids = (query.billing_subscription_ids ?? '').split(',').map(Number);
      const subs = (await provider.subscriptions(shop.id, customerId)).filter((s) => ids.includes(s.id));
      if (!customer || subs.length === 0) return { kind: 'refused', reason: 'unknown' };
      const live = query.request_type === 'live';
      const campaignId = query.campaign_id ? Number(query.campaign_id) : null;
      const tk = query.tk ?? '';
      if (method === 'GET' && campaignId !== null) await store.countCampaign(shop.id, campaignId, tk, 'pages_opened', 1).catch(() => undefined);
      let reactivated = false;
      if (live && (method === 'POST' || shop.settings.reactivate_on_get === true)) {
        reactivated = await reactivate(shop, customerId, subs, query.billing_discount_code ?? null, campaignId === null ? null : { campaignId, tk });
      }
      const current = reactivated ? (await provider.subscriptions(shop.id, customerId)).filter((s) => ids.includes(s.id)) : subs;
      const shopCatalog = await catalog.ensure(shop.id);
      return {
        kind: 'page', shop, customer, live, reactivated: reactivated || (method === 'POST' && live),
        link: `/billing/reactivate?${new URLSearchParams(query).toString()}`,
        subscriptions: current.map((subscription) => ({ subscription, image: imageOf(shopCatalog?.products.get(subscription.shop_product_id)?.json.tail) })),
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
