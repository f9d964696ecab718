import { Type, type Static } from '@sinclair/typebox';
import { openToken, sealToken } from '../../domain/billing/token-cipher.js';
import { ConflictError, InvalidDocumentError, NotFoundError } from '../../domain/errors.js';
import { validateDocument } from '../../domain/inputs/validate.js';
import {
  emptyCounts,
  isRunning,
  type PlatformSync,
  type PlatformView,
  type SyncMode,
} from '../../domain/platform/types.js';
import type { PlatformConnectionRecord, PlatformStore } from '../../store/kysely/platform.js';
import type { ShopStore } from '../../store/kysely/shops.js';
import { createGraphqlClient, type GraphqlClient, type GraphqlPolicy } from './graphql.js';
import { checkUpstreamUrl } from '../upstream/address.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { SealedTokens } from '../sealed-tokens.js';
import { HeaderToken } from '../../domain/inputs/token.js';

export const PlatformInput = Type.Object(
  {
    shop_domain: Type.String({
      pattern: '^[a-z0-9][a-z0-9.-]{0,253}$',
      maxLength: 255,
      description: 'e.g. acme.myshopify.com',
      patternMessage: "must be the store's host name in lower case, such as acme.myshopify.com",
    }),
    access_token: Type.Optional(
      HeaderToken('write-only: sealed, never returned; omit to keep the stored one (same origin only)'),
    ),
    api_version: Type.String({
      // The platform releases a version a quarter, named by the year and its first month.
      pattern: '^\\d{4}-(01|04|07|10)$',
      description: 'the Admin API version, e.g. 2025-10',
      patternMessage: 'must be a release of the Admin API, a year and 01, 04, 07 or 10, such as 2025-10',
    }),
    webhook_secret: Type.Optional(
      Type.String({
        minLength: 16,
        maxLength: 500,
        description: "the app's client secret: it signs the platform's webhooks",
      }),
    ),
    api_url: Type.Optional(
      Type.String({ maxLength: 500, description: 'default https://{shop_domain}/admin/api/{api_version}' }),
    ),
  },
  { additionalProperties: false },
);
export type PlatformInput = Static<typeof PlatformInput>;

export const SyncRequestInput = Type.Object(
  {
    mode: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('reconcile')], { description: 'default full' })),
  },
  { additionalProperties: false },
);

const problem = (path: string, message: string) =>
  new InvalidDocumentError(`Invalid platform connection: ${path} ${message}.`, [{ path, message }]);

export function viewOf(record: PlatformConnectionRecord): PlatformView {
  return {
    shop_domain: record.shop_domain,
    api_version: record.api_version,
    api_url: record.api_url,
    access_token_set: record.access_token !== null,
    status: record.status,
    sync: record.sync,
    last_reconciled_at: record.last_reconciled_at === null ? null : new Date(record.last_reconciled_at).toISOString(),
    webhooks: record.webhooks.map((w) => w.topic),
  };
}

export function newSync(previous: PlatformSync | null, mode: SyncMode): PlatformSync {
  return {
    id: (previous?.id ?? 0) + 1,
    mode,
    phase: 'queued',
    counts: emptyCounts(),
    started_at: null,
    finished_at: null,
    error: null,
  };
}

/**
 * A shop's connection to its storefront platform (docs/api.md, "Connecting the platform"). The
 * access token is sealed together with the origin it was given for, so it opens only for calls
 * to that origin; changing the URL to another origin needs the token again.
 */
export function createPlatformConnections(deps: {
  store: PlatformStore & ShopStore;
  secretKey: Buffer | null;
  upstream: Pick<UpstreamClient, 'call' | 'open' | 'checkResolves'>;
  allowPrivate: boolean;
  policy?: Partial<GraphqlPolicy>;
  /** Starts the shop's queued sync off the request path. */
  schedule: (shopId: number) => void;
  /** Whether this process's key may seal a new token (src/services/sealed-tokens.ts). */
  sealing?: Pick<SealedTokens, 'refusalToSeal'>;
}) {
  const { store, secretKey } = deps;

  async function record(shopId: number): Promise<PlatformConnectionRecord> {
    const found = await store.getPlatformConnection(shopId);
    if (!found) throw new NotFoundError('This shop has no platform connection.');
    return found;
  }

  return {
    async view(shopId: number): Promise<PlatformView> {
      return viewOf(await record(shopId));
    },

    /** Saves the connection and queues a full sync. */
    async connect(shopId: number, body: unknown): Promise<PlatformView> {
      const input = validateDocument(PlatformInput, body, 'platform connection');
      // Without api_url the address is made of shop_domain: a problem with it is the domain's.
      const field = input.api_url === undefined ? 'shop_domain' : 'api_url';
      const apiUrl = checkUpstreamUrl(
        input.api_url ?? `https://${input.shop_domain}/admin/api/${input.api_version}`,
        field,
        deps.allowPrivate,
      );
      await deps.upstream.checkResolves(apiUrl, field);
      const origin = new URL(apiUrl).origin;
      if (!secretKey)
        throw problem('access_token', 'cannot be stored: set REBOUND_SECRET_KEY (64 hex characters) and restart');
      const current = await store.getPlatformConnection(shopId);
      let sealed: string;
      if (input.access_token !== undefined) {
        const refusal = await deps.sealing?.refusalToSeal(shopId);
        if (refusal) throw problem('access_token', refusal);
        sealed = sealToken(`${origin}\n${input.access_token}`, secretKey, shopId);
      } else {
        const kept = current?.access_token ? openToken(current.access_token, secretKey, shopId) : null;
        if (kept === null) throw problem('access_token', 'is required');
        if (!kept.startsWith(`${origin}\n`))
          throw problem('access_token', 'must be sent again when api_url moves to another origin');
        sealed = current!.access_token!;
      }
      if (input.webhook_secret !== undefined) await store.updateShop(shopId, { webhook_secret: input.webhook_secret });
      await store.putPlatformConnection({
        shop_id: shopId,
        shop_domain: input.shop_domain,
        api_version: input.api_version,
        api_url: apiUrl,
        access_token: sealed,
        status: 'connected',
        sync: isRunning(current?.sync ?? null) ? current!.sync : newSync(current?.sync ?? null, 'full'),
        refusals: 0,
        last_reconciled_at: current?.last_reconciled_at ?? null,
        webhooks: current?.webhooks ?? [],
      });
      deps.schedule(shopId);
      return viewOf(await record(shopId));
    },

    /** Queues a sync; one already queued or running is answered instead of a second. */
    async requestSync(shopId: number, mode: SyncMode): Promise<PlatformSync> {
      const current = await record(shopId);
      if (current.status === 'disconnected' || current.access_token === null)
        throw new ConflictError('The shop is not connected to its platform: connect it first (PUT …/platform).');
      if (isRunning(current.sync)) return current.sync!;
      const sync = newSync(current.sync, mode);
      await store.updatePlatformConnection(shopId, { sync });
      deps.schedule(shopId);
      return sync;
    },

    /**
     * The GraphQL client of a connected shop; null when it is not connected or the token cannot be
     * opened. `policy` tightens the node's for calls a webhook waits on; `stopping` ends its waits between tries.
     */
    clientFor(
      connection: PlatformConnectionRecord,
      policy?: Partial<GraphqlPolicy>,
      stopping?: () => boolean,
    ): GraphqlClient | null {
      if (!secretKey || connection.access_token === null || connection.status === 'disconnected') return null;
      const opened = openToken(connection.access_token, secretKey, connection.shop_id);
      const origin = new URL(connection.api_url).origin;
      // The token travels only to the origin it was given for.
      if (opened === null || !opened.startsWith(`${origin}\n`)) return null;
      return createGraphqlClient({
        upstream: deps.upstream,
        apiUrl: connection.api_url,
        token: opened.slice(origin.length + 1),
        policy: { ...deps.policy, ...policy },
        ...(stopping ? { stopping } : {}),
      });
    },

    record,
  };
}

export type PlatformConnections = ReturnType<typeof createPlatformConnections>;
