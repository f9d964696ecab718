import { ConfigError } from '../config/config.js';
import { openToken } from '../domain/billing/token-cipher.js';
import type { BillingProviderStore } from '../store/kysely/billing-providers.js';
import type { PlatformStore } from '../store/kysely/platform.js';
import type { ShopStore } from '../store/kysely/shops.js';

interface SealedToken {
  shopId: number;
  what: 'billing provider token' | 'platform access token';
  /** What the shop does with it, for the start-up's message. */
  use: string;
  sealed: string;
}

/**
 * The upstream tokens stored sealed with REBOUND_SECRET_KEY (billing providers', the storefront
 * platform's). Every node, and the CLI, must hold the key they were sealed with: a token sealed with
 * another key is one no server can open, found only when its shop next calls out.
 */
export function createSealedTokens(deps: {
  store: Pick<BillingProviderStore, 'listBillingProviders'> &
    Pick<PlatformStore, 'listPlatformConnections'> &
    Pick<ShopStore, 'getShopById'>;
  secretKey: Buffer | null;
}) {
  async function stored(): Promise<SealedToken[]> {
    const billing = (await deps.store.listBillingProviders()).flatMap((r) =>
      r.type === 'remote'
        ? [
            {
              shopId: r.shop_id,
              what: 'billing provider token' as const,
              use: 'uses a remote billing provider',
              sealed: r.api_token,
            },
          ]
        : [],
    );
    const platform = (await deps.store.listPlatformConnections()).map((c) => ({
      shopId: c.shop_id,
      what: 'platform access token' as const,
      use: 'is connected to its storefront platform',
      sealed: c.access_token,
    }));
    return [...billing, ...platform].flatMap((t) => (t.sealed ? [{ ...t, sealed: t.sealed }] : []));
  }

  /** The first stored token the key does not open, leaving out the tokens of `exceptShop`. */
  async function firstUnopened(key: Buffer, exceptShop?: number): Promise<SealedToken | null> {
    for (const token of await stored())
      if (token.shopId !== exceptShop && openToken(token.sealed, key, token.shopId) === null) return token;
    return null;
  }

  /** A shop as an operator knows it: by its handle, the id beside it. */
  async function shopName(shopId: number): Promise<string> {
    const shop = await deps.store.getShopById(shopId);
    return shop ? `${shop.handle} (id ${shopId})` : String(shopId);
  }

  return {
    /** Refuses to start when a stored token cannot be opened: one line naming the shop and the cause. */
    async checkStartup(): Promise<void> {
      const [first] = await stored();
      if (!first) return;
      if (!deps.secretKey)
        throw new ConfigError(
          `Shop ${await shopName(first.shopId)} ${first.use}, but REBOUND_SECRET_KEY is not set: ` +
            `set it to the key its ${first.what} was stored with.`,
        );
      const unopened = await firstUnopened(deps.secretKey);
      if (unopened)
        throw new ConfigError(
          `REBOUND_SECRET_KEY does not open the ${unopened.what} of shop ${await shopName(unopened.shopId)}: ` +
            'use the key it was stored with, or store the token again.',
        );
    },

    /**
     * Before a shop's token is sealed: why this process's key must not seal it, or null. A key that
     * does not open the other shops' tokens is not the servers' one (a CLI run with another .env).
     */
    async refusalToSeal(shopId: number): Promise<string | null> {
      if (!deps.secretKey) return 'cannot be stored: set REBOUND_SECRET_KEY (64 hex characters) and restart';
      const unopened = await firstUnopened(deps.secretKey, shopId);
      return unopened
        ? 'cannot be stored: REBOUND_SECRET_KEY is not the key the stored tokens were sealed with ' +
            `(the ${unopened.what} of shop ${unopened.shopId} does not open with it); every node and the CLI ` +
            'need the same key'
        : null;
    },
  };
}

export type SealedTokens = ReturnType<typeof createSealedTokens>;
