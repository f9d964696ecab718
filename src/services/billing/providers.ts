import { openToken, sealToken } from '../../domain/billing/token-cipher.js';
import type { BillingProviderSettings } from '../../domain/billing/types.js';
import { BadGatewayError, InvalidDocumentError } from '../../domain/errors.js';
import { BillingProviderInput, REMOTE_API_VERSIONS } from '../../domain/inputs/billing-provider.js';
import { validateDocument } from '../../domain/inputs/validate.js';
import type { BillingProviderRecord, BillingProviderStore } from '../../store/kysely/billing-providers.js';
import type { BillingStore } from '../../store/kysely/billing.js';
import type { IdempotencyStore } from '../../store/kysely/idempotency.js';
import { ledgerProvider } from './ledger-provider.js';
import type { BillingProvider } from './provider.js';
import { DEFAULT_POLICY, createRemoteClient, type RemoteCallPolicy } from './remote/client.js';
import { remoteProvider } from './remote/provider.js';
import { ProviderReadCache, type CachedKind } from './remote/read-cache.js';
import { checkUpstreamUrl } from '../upstream/address.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { SealedTokens } from '../sealed-tokens.js';

/** Each shop's billing provider: the ledger unless the shop chose a remote one (docs/billing.md). */
export function createBillingProviders(deps: {
  store: BillingProviderStore & BillingStore & IdempotencyStore;
  secretKey: Buffer | null;
  /** The one outbound client; the provider's base URL is checked by its address rules. */
  upstream: UpstreamClient;
  /** REBOUND_ALLOW_PRIVATE_UPSTREAMS: http and private base URLs accepted (development and tests). */
  allowPrivateUpstreams: boolean;
  policy?: Partial<RemoteCallPolicy>;
  log?: { warn(obj: object, msg: string): void };
  /** Whether this process's key may seal a new token (src/services/sealed-tokens.ts). */
  sealing?: Pick<SealedTokens, 'refusalToSeal'>;
}) {
  const { store, secretKey } = deps;
  const policy: RemoteCallPolicy = { ...DEFAULT_POLICY, ...deps.policy };
  const ledger = ledgerProvider(store);
  const cache = new ProviderReadCache();
  const remotes = new Map<number, { stamp: number; provider: BillingProvider }>();

  function remoteFor(record: BillingProviderRecord): BillingProvider {
    const cached = remotes.get(record.shop_id);
    if (cached && cached.stamp === record.updated_at) return cached.provider;
    const token = secretKey && record.api_token ? openToken(record.api_token, secretKey, record.shop_id) : null;
    if (token === null)
      throw new BadGatewayError(
        "The shop's billing provider token cannot be read with this server's REBOUND_SECRET_KEY; " +
          'store the token again.',
      );
    // The token travels with the base URL it was stored with, and to nothing else.
    const client = createRemoteClient(
      {
        upstream: deps.upstream,
        baseUrl: record.base_url!,
        token,
        version: record.api_version ?? REMOTE_API_VERSIONS[0],
        lane: `billing:${record.shop_id}`,
      },
      policy,
    );
    const provider = remoteProvider({ client, cache, store, policy, ...(deps.log ? { log: deps.log } : {}) });
    remotes.set(record.shop_id, { stamp: record.updated_at, provider });
    return provider;
  }

  /** The base URL under the upstream address rules, checked now against what its host resolves to. */
  async function checkBaseUrl(value: string | undefined): Promise<string> {
    const url = checkUpstreamUrl(value, 'base_url', deps.allowPrivateUpstreams);
    await deps.upstream.checkResolves(url, 'base_url');
    return url;
  }

  return {
    /** The provider that holds this shop's subscriptions (one primary-key read). */
    async forShop(shopId: number): Promise<BillingProvider> {
      const record = await store.getBillingProvider(shopId);
      return !record || record.type === 'ledger' ? ledger : remoteFor(record);
    },

    /** What the admin API shows: never the token. */
    async settings(shopId: number): Promise<BillingProviderSettings> {
      const record = await store.getBillingProvider(shopId);
      if (!record) return { type: 'ledger', base_url: null, api_version: null, api_token_set: false };
      return {
        type: record.type,
        base_url: record.base_url,
        api_version: record.api_version,
        api_token_set: record.api_token !== null,
      };
    },

    /** Switches a shop's provider; a remote one keeps its stored token when none is given. */
    async configure(shopId: number, body: unknown): Promise<BillingProviderSettings> {
      const input = validateDocument(BillingProviderInput, body, 'billing provider');
      if (input.type === 'ledger') {
        await store.putBillingProvider(shopId, { type: 'ledger', base_url: null, api_version: null, api_token: null });
      } else {
        const baseUrl = await checkBaseUrl(input.base_url);
        const current = await store.getBillingProvider(shopId);
        const kept = current?.type === 'remote' ? current.api_token : null;
        // A stored token is bound to the origin it was given for: moving it elsewhere needs the token again.
        if (
          input.api_token === undefined &&
          kept !== null &&
          new URL(current!.base_url!).origin !== new URL(baseUrl).origin
        )
          throw new InvalidDocumentError(
            'Invalid billing provider: send api_token again to use it with another base_url origin.',
            [{ path: 'api_token', message: 'required when base_url moves to another origin' }],
          );
        if (input.api_token === undefined && kept === null)
          throw new InvalidDocumentError('Invalid billing provider: api_token is required for a remote provider.', [
            { path: 'api_token', message: 'required' },
          ]);
        if (!secretKey) {
          throw new InvalidDocumentError(
            'This server cannot store an API token: set REBOUND_SECRET_KEY (64 hex characters) and restart.',
            [{ path: 'api_token', message: 'REBOUND_SECRET_KEY is not set' }],
          );
        }
        const refusal = input.api_token === undefined ? null : await deps.sealing?.refusalToSeal(shopId);
        if (refusal)
          throw new InvalidDocumentError(`Invalid billing provider: api_token ${refusal}.`, [
            { path: 'api_token', message: refusal },
          ]);
        const sealed = input.api_token === undefined ? kept : sealToken(input.api_token, secretKey, shopId);
        await store.putBillingProvider(shopId, {
          type: 'remote',
          base_url: baseUrl,
          api_version: input.api_version ?? REMOTE_API_VERSIONS[0],
          api_token: sealed,
        });
      }
      cache.dropShop(shopId);
      remotes.delete(shopId);
      return this.settings(shopId);
    },

    /** A provider webhook said this object changed: the next read asks the provider. */
    dropCached(shopId: number, kind: CachedKind, id: number): void {
      cache.drop(shopId, kind, id);
    },

    /** Forgets every read kept of the shop's provider objects (an erasure: they may name the customer). */
    dropShopReads(shopId: number): void {
      cache.dropShop(shopId);
    },

    /** Forgets the providers built for shops (the upstream client's connections are closed by its owner). */
    async close(): Promise<void> {
      remotes.clear();
    },
  };
}

export type BillingProviders = ReturnType<typeof createBillingProviders>;
