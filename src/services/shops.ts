import {
  ConflictError,
  ForbiddenError,
  InvalidDocumentError,
  InvalidInputError,
  NotFoundError,
} from '../domain/errors.js';
import { NewShopInput, ShopPatchInput } from '../domain/inputs/shop.js';
import { validateDocument } from '../domain/inputs/validate.js';
import { hashKey, KEY_GRACE_MS, newApiKey, randomSecret } from '../domain/keys.js';
import { HANDLE_PATTERN, isValidTimezone, OPERATOR_SETTINGS, type KeySummary, type Shop } from '../domain/shop.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { KeyIndex } from '../indexes/key-index.js';
import { asksForMarkets } from '../domain/rules/outputs.js';
import type { RulesetStore } from '../store/kysely/rulesets.js';
import type { ShopStore } from '../store/kysely/shops.js';

/** The currencies prices can be shown in (ISO 4217, as the runtime's ICU data knows them): `XYZ` is none. */
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export interface IssuedKeys {
  public: string;
  private: string;
}

/** The shop's settings with a PATCH's merged in: a setting not named stays, one sent as null goes to its default. */
function mergedSettings(current: Shop['settings'], changes: Record<string, unknown>): Shop['settings'] {
  const merged: Record<string, unknown> = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete merged[name];
    else if (value !== undefined) merged[name] = value;
  }
  return merged as Shop['settings'];
}

/** Shops and their keys: creation, settings, rotation (docs/api.md, "Keys"). */
export function createShopsService(deps: {
  store: ShopStore & Pick<RulesetStore, 'listRulesets'>;
  catalog: CatalogIndex;
  keys: KeyIndex;
  keysChanged?: () => void;
}) {
  const { store, catalog, keys } = deps;
  const keysChanged = deps.keysChanged ?? (() => undefined);

  /**
   * Without read_markets, every request of a ruleset whose list outputs name a market is a 403, and a
   * country condition could only match requests refused for their country_code: the scope stays until
   * those rules are changed (a ruleset's save refuses them for the same reason).
   */
  async function refuseIfMarketsAsked(shopId: number): Promise<void> {
    const asking = (await store.listRulesets(shopId)).filter((r) => r.enabled && asksForMarkets(r.rules));
    if (asking.length === 0) return;
    const rulesets = `${asking.length > 1 ? 'rulesets' : 'ruleset'} ${asking.map((r) => r.id).join(', ')}`;
    throw new ConflictError(
      `read_markets stays while ${rulesets} read a country (a country condition) or name a market ` +
        '(country_code or presentment_prices) in a list output; change those rules first.',
    );
  }

  function checkSemantics(doc: {
    handle?: string;
    timezone?: string;
    currency?: string;
    public_url?: string | null;
  }): void {
    if (doc.handle !== undefined && !HANDLE_PATTERN.test(doc.handle)) {
      throw new InvalidDocumentError(
        'Invalid shop: handle must be 1-63 lower-case letters, digits or dashes, starting with a letter or digit.',
        [{ path: 'handle', message: 'not url-safe' }],
      );
    }
    if (doc.timezone !== undefined && !isValidTimezone(doc.timezone)) {
      throw new InvalidDocumentError(`Invalid shop: timezone "${doc.timezone}" is not an IANA time zone.`, [
        { path: 'timezone', message: 'unknown time zone' },
      ]);
    }
    if (doc.currency !== undefined && !CURRENCIES.has(doc.currency)) {
      throw new InvalidDocumentError(`Invalid shop: currency "${doc.currency}" is not an ISO 4217 currency code.`, [
        { path: 'currency', message: 'is no currency: a code such as USD, EUR or JPY' },
      ]);
    }
    if (doc.public_url) {
      const problem = publicUrlProblem(doc.public_url);
      if (problem)
        throw new InvalidDocumentError(`Invalid shop: public_url ${problem}.`, [
          { path: 'public_url', message: problem },
        ]);
    }
  }

  async function requireShop(handle: string): Promise<Shop> {
    const shop = await store.getShopByHandle(handle);
    if (!shop) throw new NotFoundError(`Shop ${handle} not found.`);
    return shop;
  }

  return {
    requireShop,

    async requireShopById(id: number): Promise<Shop> {
      const shop = await store.getShopById(id);
      if (!shop) throw new NotFoundError('Shop not found.');
      return shop;
    },

    async listShops(): Promise<Shop[]> {
      return store.listShops();
    },

    /** Creates a shop and returns its keys, the only time they are shown. */
    async createShop(body: unknown): Promise<{ shop: Shop; keys: IssuedKeys }> {
      const input = validateDocument(NewShopInput, body, 'shop');
      checkSemantics(input);
      const pub = newApiKey(0, 'public');
      const priv = newApiKey(0, 'private');
      const shop = await store.createShop(
        {
          handle: input.handle,
          name: input.name,
          timezone: input.timezone ?? 'UTC',
          currency: input.currency ?? 'USD',
          scopes: [...new Set(input.scopes ?? [])],
          signing_secret: randomSecret(32),
          public_url: input.public_url?.replace(/\/+$/, '') ?? null,
          webhook_secret: null,
          billing_webhook_secret: null,
          settings: {},
        },
        [pub.record, priv.record],
      );
      await Promise.all([keys.load(), catalog.apply(shop.id, {})]);
      keysChanged();
      return { shop, keys: { public: pub.plain, private: priv.plain } };
    },

    /**
     * Changes a shop. Only the operator changes scopes and rate limits; a shop's private key may
     * change the rest, and its settings keep the limits the operator set (docs/operations.md, "Keys").
     */
    async updateShop(handle: string, body: unknown, by: { operator: boolean }): Promise<Shop> {
      const patch = validateDocument(ShopPatchInput, body, 'shop');
      checkSemantics(patch);
      const shop = await requireShop(handle);
      if (!by.operator) {
        const settings = patch.settings ?? {};
        const sameScopes =
          patch.scopes === undefined || [...new Set(patch.scopes)].sort().join() === [...shop.scopes].sort().join();
        // Sending back the values the operator set (a whole settings object, as the console does) is not a change.
        if (
          !sameScopes ||
          OPERATOR_SETTINGS.some((name) => settings[name] !== undefined && settings[name] !== shop.settings[name])
        ) {
          throw new ForbiddenError("Only the operator token changes a shop's scopes and rate limits.", 'operator_only');
        }
        if (patch.settings)
          for (const name of OPERATOR_SETTINGS)
            if (shop.settings[name] !== undefined) patch.settings[name] = shop.settings[name];
      }
      if (patch.scopes && shop.scopes.includes('read_markets') && !patch.scopes.includes('read_markets'))
        await refuseIfMarketsAsked(shop.id);
      const { settings: changes, ...rest } = patch;
      const updated = await store.updateShop(shop.id, {
        ...rest,
        ...(changes ? { settings: mergedSettings(shop.settings, changes) } : {}),
        ...(patch.scopes ? { scopes: [...new Set(patch.scopes)] } : {}),
      });
      // Settings tune the sales rankings, so those are refolded too.
      await catalog.apply(shop.id, { shop: true, orders: true });
      return updated;
    },

    /**
     * New public and private keys. The replaced keys keep working for a grace period; keys already
     * in one end now, and so does the key that asked (a leaked key cannot keep itself alive).
     */
    async rotateKeys(
      handle: string,
      askingKey: string | null = null,
    ): Promise<{ keys: IssuedKeys; previous_keys_expire_at: string }> {
      const shop = await requireShop(handle);
      if (askingKey !== null) {
        const asking = (await store.listShopKeys(shop.id)).find((k) => k.key_hash === hashKey(askingKey));
        // A replaced key only lives out its grace period: it cannot start a new generation of keys.
        if (asking?.expires_at !== null)
          throw new ForbiddenError(
            'A key in its grace period cannot rotate keys: use a current private key.',
            'key_scope',
          );
      }
      const pub = newApiKey(shop.id, 'public');
      const priv = newApiKey(shop.id, 'private');
      const now = Date.now();
      const graceUntil = now + KEY_GRACE_MS;
      await store.rotateApiKeys(shop.id, [pub.record, priv.record], {
        now,
        graceUntil,
        endNowHash: askingKey === null ? null : hashKey(askingKey),
      });
      await keys.load();
      keysChanged();
      return {
        keys: { public: pub.plain, private: priv.plain },
        previous_keys_expire_at: new Date(graceUntil).toISOString(),
      };
    },

    /**
     * Ends one live key at once, on every node: named by the whole key, or by a prefix of 16
     * characters or more that names exactly one live key of the shop (else a 400: a short prefix
     * shared by several keys never ends them all).
     */
    async revokeKey(handle: string, keyOrPrefix: string): Promise<{ revoked: number }> {
      const shop = await requireShop(handle);
      const now = Date.now();
      const live = (await store.listShopKeys(shop.id)).filter((k) => k.expires_at === null || k.expires_at > now);
      const whole = live.filter((k) => k.key_hash === hashKey(keyOrPrefix));
      const named =
        whole.length > 0
          ? whole
          : live.filter((k) => k.key_prefix.startsWith(keyOrPrefix) || keyOrPrefix.startsWith(k.key_prefix));
      if (named.length !== 1)
        throw new InvalidInputError(
          'key_prefix',
          named.length === 0
            ? `Shop ${handle} has no live key starting with ${keyOrPrefix.slice(0, 20)}.`
            : `${named.length} live keys of shop ${handle} start with ${keyOrPrefix.slice(0, 20)}: send more ` +
                `characters, or the whole key.`,
        );
      const revoked = await store.revokeApiKeys(shop.id, named[0]!.key_hash, now);
      await keys.load();
      keysChanged();
      return { revoked };
    },

    /** A shop's keys as the operator sees them: prefix, kind and state, never the key. */
    async listKeys(handle: string): Promise<KeySummary[]> {
      const shop = await requireShop(handle);
      const now = Date.now();
      return (await store.listShopKeys(shop.id)).map((k) => ({
        kind: k.kind,
        key_prefix: k.key_prefix,
        created_at: new Date(k.created_at).toISOString(),
        expires_at: k.expires_at === null ? null : new Date(k.expires_at).toISOString(),
        state: k.expires_at === null ? 'current' : k.expires_at > now ? 'grace' : 'ended',
      }));
    },
  };
}

export type ShopsService = ReturnType<typeof createShopsService>;

/**
 * Why a storefront address cannot be the base of the links Rebound makes (reactivation pages, widget
 * links), or null. Paths are appended to it: a query or fragment would swallow them and their
 * signatures, and credentials would be sent to every customer who follows one.
 */
function publicUrlProblem(value: string): string | null {
  if (value.length > 2048) return 'must be at most 2,048 characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an http(s) URL';
  }
  if (!/^https?:$/.test(url.protocol)) return 'must be an http(s) URL';
  if (url.username || url.password) return 'must not hold a user name or password';
  if (url.search || url.hash || /[?#]/.test(value)) return 'must not hold a query (?) or fragment (#)';
  return null;
}
