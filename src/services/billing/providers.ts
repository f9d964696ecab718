import { LRUCache } from 'lru-cache';
import { Pool } from 'undici';
import { ConfigError } from '../../config/config.js';
import { openToken, sealToken } from '../../domain/billing/token-cipher.js';
import type { BillingProviderSettings } from '../../domain/billing/types.js';
import { BadGatewayError, InvalidDocumentError } from '../../domain/errors.js';
import { BillingProviderInput, REMOTE_API_VERSIONS } from '../../domain/inputs/billing-provider.js';
import { validateDocument } from '../../domain/inputs/validate.js';
import type { BillingProviderRecord, Store } from '../../store/store.js';
import { ledgerProvider } from './ledger-provider.js';
import type { BillingProvider } from './provider.js';
import { DEFAULT_POLICY, createRemoteClient, type RemoteCallPolicy } from './remote/client.js';
import { remoteProvider } from './remote/provider.js';
import { ProviderReadCache, type CachedKind } from './remote/read-cache.js';

type ProvidersStore = Pick<
  Store,
  | 'getBillingProvider'
  | 'putBillingProvider'
  | 'listBillingProviders'
  | 'getLedgerDoc'
  | 'listCustomerSubscriptions'
  | 'nextQueuedCharge'
  | 'saveReactivation'
  | 'createOnetime'
  | 'claimIdempotencyKey'
  | 'finishIdempotencyKey'
  | 'abandonIdempotencyKey'
>;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Each shop's billing provider: the ledger unless the shop chose a remote one (docs/billing.md). */
export function createBillingProviders(deps: {
  store: ProvidersStore;
  secretKey: Buffer | null;
  policy?: Partial<RemoteCallPolicy>;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { store, secretKey } = deps;
  const policy: RemoteCallPolicy = { ...DEFAULT_POLICY, ...deps.policy };
  const ledger = ledgerProvider(store);
  const cache = new ProviderReadCache();
  // One connection pool per provider origin, shared by the shops that use it.
  const pools = new LRUCache<string, Pool>({ max: 200, dispose: (pool) => void pool.close().catch(() => undefined) });
  const remotes = new Map<number, { stamp: number; provider: BillingProvider }>();

  function poolFor(origin: string): Pool {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: 16, headersTimeout: policy.timeoutMs, bodyTimeout: policy.timeoutMs, connect: { timeout: policy.timeoutMs } });
      pools.set(origin, pool);
    }
    return pool;
  }

  function remoteFor(record: BillingProviderRecord): BillingProvider {
    const cached = remotes.get(record.shop_id);
    if (cached && cached.stamp === record.updated_at) return cached.provider;
    const token = secretKey && record.api_token ? openToken(record.api_token, secretKey, record.shop_id) : null;
    if (token === null)
      throw new BadGatewayError("The shop's billing provider token cannot be read with this server's REBOUND_SECRET_KEY; store the token again.");
    const url = new URL(record.base_url!);
    const client = createRemoteClient(
      { dispatcher: poolFor(url.origin), basePath: url.pathname.replace(/\/+$/, ''), token, version: record.api_version ?? REMOTE_API_VERSIONS[0] },
      policy,
    );
    const provider = remoteProvider({ client, cache, store, policy, ...(deps.log ? { log: deps.log } : {}) });
    remotes.set(record.shop_id, { stamp: record.updated_at, provider });
    return provider;
  }

  function checkBaseUrl(value: string | undefined): string {
    let url: URL | null = null;
    try {
      url = value ? new URL(value) : null;
    } catch {
      url = null;
    }
    // Plain http only to this machine (a local test double): a token never crosses a network in clear.
    if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) || url.search || url.hash || url.username) {
      throw new InvalidDocumentError('Invalid billing provider: base_url must be an https URL without query or credentials.', [
        { path: 'base_url', message: 'not an https URL' },
      ]);
    }
    return url.toString().replace(/\/+$/, '');
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
      return { type: record.type, base_url: record.base_url, api_version: record.api_version, api_token_set: record.api_token !== null };
    },

    /** Switches a shop's provider; a remote one keeps its stored token when none is given. */
    async configure(shopId: number, body: unknown): Promise<BillingProviderSettings> {
      const input = validateDocument(BillingProviderInput, body, 'billing provider');
      if (input.type === 'ledger') {
        await store.putBillingProvider(shopId, { type: 'ledger', base_url: null, api_version: null, api_token: null });
      } else {
        const baseUrl = checkBaseUrl(input.base_url);
        const current = await store.getBillingProvider(shopId);
        const kept = current?.type === 'remote' ? current.api_token : null;
        if (input.api_token === undefined && kept === null)
          throw new InvalidDocumentError('Invalid billing provider: api_token is required for a remote provider.', [
            { path: 'api_token', message: 'required' },
          ]);
        if (!secretKey) {
          throw new InvalidDocumentError('This server cannot store an API token: set REBOUND_SECRET_KEY (64 hex characters) and restart.', [
            { path: 'api_token', message: 'REBOUND_SECRET_KEY is not set' },
          ]);
        }
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

    /** Refuses to start when a remote shop's token cannot be opened: one line naming the cause. */
    async checkStartup(): Promise<void> {
      for (const record of await store.listBillingProviders()) {
        if (record.type !== 'remote') continue;
        if (!secretKey)
          throw new ConfigError(
            `Shop ${record.shop_id} uses a remote billing provider, but REBOUND_SECRET_KEY is not set: set it to the key its API token was stored with.`,
          );
        if (!record.api_token || openToken(record.api_token, secretKey, record.shop_id) === null) {
          throw new ConfigError(
            `REBOUND_SECRET_KEY does not open the billing provider token of shop ${record.shop_id}: use the key it was stored with, or store the token again.`,
          );
        }
      }
    },

    /** A provider webhook said this object changed: the next read asks the provider. */
    dropCached(shopId: number, kind: CachedKind, id: number): void {
      cache.drop(shopId, kind, id);
    },

    async close(): Promise<void> {
      const open = [...pools.values()];
      pools.clear();
      await Promise.all(open.map((pool) => pool.close().catch(() => undefined)));
    },
  };
}

export type BillingProviders = ReturnType<typeof createBillingProviders>;
