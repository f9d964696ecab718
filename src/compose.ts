import type { Logger } from 'pino';
import { ChangeBus } from './cache/change-bus.js';
import { connectRedis, whenReady } from './cache/redis.js';
import { ResponseCache } from './cache/response-cache.js';
import { SharedAnswers } from './cache/shared-answers.js';
import { RateLimiter } from './cache/rate-limiter.js';
import type { Config } from './config/config.js';
import { CatalogIndex } from './indexes/catalog-index.js';
import { KeyIndex } from './indexes/key-index.js';
import { INFLATED_CACHE_BYTES } from './indexes/product-inflate.js';
import { ModelIndex } from './indexes/model-index.js';
import { ModelPool } from './jobs/model-pool.js';
import { AssemblyPool } from './jobs/assembly-pool.js';
import { redisFailureLog } from './cache/outage-log.js';
import { answerCacheBytes } from './indexes/answer-cache-budget.js';
import { Residency } from './indexes/residency.js';
import { ViewedIndex } from './indexes/viewed-index.js';
import { GroupCommitter } from './jobs/group-commit.js';
import { ExposureWriter } from './jobs/exposure-writer.js';
import type { TrackRow } from './domain/attribution/track.js';
import { createAttributionService } from './services/attribution.js';
import { createExperimentsService } from './services/experiments/index.js';
import { createWidgetsService } from './services/widgets.js';
import { createTrackingService } from './services/tracking.js';
import { createEventsService, type EventRow } from './services/events/index.js';
import { createLedgerService } from './services/billing/ledger.js';
import { createOnetimeService } from './services/billing/onetime.js';
import { createBillingProviders } from './services/billing/providers.js';
import { createSealedTokens, type SealedTokens } from './services/sealed-tokens.js';
import type { LookupFunction } from 'node:net';
import { TrackCountedPruner } from './jobs/track-counted-pruner.js';
import { createUpstreamClient, type UpstreamClient } from './services/upstream/client.js';
import { createReactivationService } from './services/billing/reactivation.js';
import { createBillingWebhooks } from './services/billing/webhooks.js';
import { createAdminAuth } from './services/admin-auth.js';
import { createCatalogService } from './services/catalog.js';
import { createInsightsService } from './services/insights.js';
import { createModelsService } from './services/models.js';
import { createListsService } from './services/lists/index.js';
import { createRecommendationsService } from './services/recommendations/index.js';
import { createRulesetsService } from './services/rulesets.js';
import { createShopsService } from './services/shops.js';
import { createStorefrontSync } from './services/storefront-sync.js';
import { createPlatformService } from './services/platform/index.js';
import { createPrivacyService } from './services/platform/privacy.js';
import type { ErasedCustomer } from './store/kysely/privacy.js';
import { visitorsOf } from './domain/experiments/assign.js';
import { createPlatformTopics } from './services/platform/webhooks.js';
import { openStore } from './store/open.js';
import type { Store } from './store/store.js';

/** Everything the HTTP app and the CLI use, created in one place. */
export interface Services {
  config: Config;
  store: Store;
  catalogIndex: CatalogIndex;
  keys: KeyIndex;
  /** Every shop's learned model (recommended, for_you, viewed_together), built in a worker thread. */
  models: ModelIndex;
  /** The inspection of the model's raw material (admin). */
  modelsAdmin: ReturnType<typeof createModelsService>;
  /** Finished public answers, compressed once (docs/api.md, "Caching"). */
  answers: SharedAnswers;
  bus: ChangeBus;
  limiter: RateLimiter;
  adminAuth: ReturnType<typeof createAdminAuth>;
  shops: ReturnType<typeof createShopsService>;
  catalog: ReturnType<typeof createCatalogService>;
  lists: ReturnType<typeof createListsService>;
  rulesets: ReturnType<typeof createRulesetsService>;
  recommendations: ReturnType<typeof createRecommendationsService>;
  events: ReturnType<typeof createEventsService>;
  /** The event intake's group commit (buffer depth and commit figures for metrics). */
  eventWriter: GroupCommitter<EventRow, boolean>;
  /** Impressions, clicks and add-to-carts, durable before the answer (docs/attribution.md). */
  tracking: ReturnType<typeof createTrackingService>;
  /** The tracking intake's own group commit: one item per request, so a request's events commit together. */
  trackWriter: GroupCommitter<TrackRow[]>;
  /** Orders attributed to sources as they arrive, and the figures per ruleset and list. */
  attribution: ReturnType<typeof createAttributionService>;
  experiments: ReturnType<typeof createExperimentsService>;
  /** Storefront widgets as data: designs and sources /widget.js reads. */
  widgets: ReturnType<typeof createWidgetsService>;
  /** Visitors each experiment arm served, written off the request path. */
  exposures: ExposureWriter;
  ledger: ReturnType<typeof createLedgerService>;
  /** The merchant console's overview: trending, top sellers, events per day, conversion. */
  insights: ReturnType<typeof createInsightsService>;
  /** Each shop's billing provider: the ledger, or a remote provider's API (docs/billing.md). */
  billingProviders: ReturnType<typeof createBillingProviders>;
  sealedTokens: SealedTokens;
  upstream: UpstreamClient;
  reactivation: ReturnType<typeof createReactivationService>;
  onetime: ReturnType<typeof createOnetimeService>;
  billingWebhooks: ReturnType<typeof createBillingWebhooks>;
  storefrontSync: ReturnType<typeof createStorefrontSync>;
  /** The storefront platform connection: sync, reconciliation, webhooks it subscribed (docs/api.md). */
  platform: ReturnType<typeof createPlatformService>;
  /** Privacy requests, erasure and event retention (docs/operations.md, "Privacy"). */
  privacy: ReturnType<typeof createPrivacyService>;
  /** Starts background refresh of the indexes (other nodes' writes). */
  startBackground(): void;
  /**
   * Work to stop when the process shuts down, before the buffers are written and the pools close
   * (sync jobs, background loops): register a function that resolves once that work has stopped.
   */
  onClose(stop: () => Promise<void> | void): void;
  close(): Promise<void>;
}

/** The composition root: opens the store, loads the read models, wires the services. */
export async function compose(
  config: Config,
  options: {
    log?: Logger;
    store?: Store /** Name resolution of upstream calls (tests resolve names of their own). */;
    upstreamLookup?: LookupFunction;
  } = {},
): Promise<Services> {
  const onNewerSchema = (migrations: string[]) =>
    options.log?.warn({ migrations }, 'the database schema is newer than this version: running on it');
  const store = options.store ?? (await openStore(config.databaseUrl, { onNewerSchema }));
  // The answer cache takes a share of what the budget leaves above the process (answerCacheBytes); shops the rest.
  const answerBytes = answerCacheBytes(config.memoryBudgetMb);
  const residency = new Residency({
    budgetBytes: config.memoryBudgetMb * 1024 * 1024,
    // The recently read products kept inflated are a fixed few MB beside it (product-json.ts).
    reserveBytes: answerBytes + INFLATED_CACHE_BYTES,
    baseline: () => process.memoryUsage().rss,
    rss: () => process.memoryUsage.rss(),
    ...(options.log ? { log: options.log } : {}),
  });
  // Shops are loaded on their first request, not here: a node's memory follows its traffic.
  // A shop's products are read and packed off the request thread (§23); the loads only swap them in.
  // Under a small budget there is none (AssemblyPool.workFor): every page is read here.
  const assembly = new AssemblyPool(config.databaseUrl);
  const catalog = new CatalogIndex(store, residency, options.log, assembly.workFor(config.memoryBudgetMb));
  const keys = new KeyIndex(store);
  await keys.load();
  const failures = config.redisUrl ? redisFailureLog(options.log) : null;
  const warn = (error: unknown) => failures?.warn(error);
  const redis = config.redisUrl ? connectRedis(config.redisUrl, warn) : null;
  if (redis && !(await whenReady(redis)))
    options.log?.warn('redis did not answer at start-up: serving from the local cache until it does');
  const answers = new SharedAnswers(
    new ResponseCache({ ttlSeconds: config.cacheTtlSeconds, maxBytes: answerBytes }),
    redis,
    {
      prefix: config.redisPrefix,
      ttlSeconds: config.cacheTtlSeconds,
      warn,
    },
  );
  const bus = new ChangeBus(redis, `${config.redisPrefix}changes`, warn);
  const modelPool = new ModelPool(config.databaseUrl, { shopBytes: (shopId) => residency.residentBytes(shopId) });
  if (!modelPool.usable)
    options.log?.warn(
      'an in-memory SQLite database cannot be read by the model worker: the model lists serve their fallback',
    );
  const modelIntervalMs = config.modelIntervalS * 1000;
  const models = new ModelIndex(
    modelPool.usable ? (shopId, stamp, withContent) => modelPool.build(shopId, stamp, withContent) : null,
    {
      intervalMs: modelIntervalMs,
      debounceMs: config.modelDebounceS * 1000,
      content: (shopId) => modelPool.content(shopId),
      ...(options.log ? { log: options.log } : {}),
    },
  );
  // A shop's model counts against the same memory budget and leaves with the shop's catalog.
  residency.register(models);
  catalog.onLocalChange = (shopId, version) => {
    bus.publish({ type: 'shop', shopId, version });
    models.changed(shopId);
  };
  const adminAuth = createAdminAuth({ store, keys, configuredToken: config.adminToken });
  const eventWriter = new GroupCommitter<EventRow, boolean>((batch) => store.appendEvents(batch), {
    maxBatch: 1000,
    maxDelayMs: 0,
  });
  const viewed = new ViewedIndex(store);
  // Every outbound call goes through this one client (address rules, deadline, byte cap).
  const upstream = createUpstreamClient({
    allowPrivate: config.allowPrivateUpstreams,
    ...(options.upstreamLookup ? { lookup: options.upstreamLookup } : {}),
  });
  const sealedTokens = createSealedTokens({ store, secretKey: config.secretKey });
  const billingProviders = createBillingProviders({
    store,
    sealing: sealedTokens,
    upstream,
    allowPrivateUpstreams: config.allowPrivateUpstreams,
    secretKey: config.secretKey,
    policy: { timeoutMs: config.billingTimeoutMs, budgetMs: 2 * config.billingTimeoutMs },
    ...(options.log ? { log: options.log } : {}),
  });
  const trackCounted = new TrackCountedPruner((day) => store.forgetCountedBefore(day));
  const trackWriter = new GroupCommitter<TrackRow[]>((batch) => store.appendTrackEvents(batch.flat()), {
    maxBatch: 500,
    maxDelayMs: 0,
  });
  const exposures = new ExposureWriter((rows) => store.recordExposures(rows), {
    flushMs: 1000,
    maxBatch: 1000,
    maxPending: 100_000,
    remember: 200_000,
    onError: (error) => options.log?.warn({ err: error }, 'could not record experiment visitors; retrying'),
  });
  await bus.subscribe((message) => {
    if (message.type === 'answers') {
      // An erasure on another node: what this one learned, read or cached from the erased data goes too.
      forgetHeld(message.shopId, message.erased)
        .then(() => answers.local.deleteShop(message.shopId))
        .catch((error: unknown) => options.log?.warn({ err: error }, "could not apply another node's erasure"));
      return;
    }
    const done = message.type === 'keys' ? keys.load() : catalog.refreshShop(message.shopId, message.version);
    done.catch((error: unknown) =>
      options.log?.warn({ err: error }, "could not apply another node's change; the next poll will"),
    );
  });
  /** What this node holds of a shop's erased data, dropped (docs/operations.md, "Privacy"). */
  async function forgetHeld(shopId: number, erased?: ErasedCustomer): Promise<void> {
    models.forget(shopId);
    billingProviders.dropShopReads(shopId);
    if (erased) viewed.forget(shopId, erased.customerId, erased.sessions);
    // A buffered or racing exposure could write the visitor (the shop deleted: any) back after the delete.
    const visitors = erased ? visitorsOf(erased.customerId, erased.sessions) : null;
    await exposures.forget(shopId, visitors);
    await store.forgetExposures(shopId, visitors);
  }
  const attribution = createAttributionService({ store, catalog });
  const catalogAdmin = createCatalogService({ store, catalog, attribution });
  const privacy = createPrivacyService({
    store,
    catalog,
    forgetHeld,
    shopDeleted: () => keys.load().then(() => bus.publish({ type: 'keys' })),
    ...(options.log ? { log: options.log } : {}),
    forgetAnswers: (shopId, erased) =>
      answers.forgetShop(shopId).then(() => bus.publish({ type: 'answers', shopId, ...(erased ? { erased } : {}) })),
  });
  const platform = createPlatformService({
    store,
    sealing: sealedTokens,
    catalog,
    catalogAdmin,
    upstream,
    secretKey: config.secretKey,
    allowPrivate: config.allowPrivateUpstreams,
    sync: {
      pollMs: config.platformPollMs,
      batchSize: 250,
      maxLineBytes: 4 * 1024 * 1024,
      fileDeadlineMs: 3_600_000,
      maxFileBytes: config.platformExportMaxMb * 1024 * 1024,
      publicUrl: config.publicUrl,
    },
    ...(options.log ? { log: options.log } : {}),
  });
  const platformTopics = createPlatformTopics({
    store,
    connections: platform.connections,
    catalogAdmin,
    privacy,
    uninstalled: (shopId) => platform.uninstalled(shopId),
  });
  const storefrontSync = createStorefrontSync({
    store,
    catalogAdmin,
    catalog,
    platformTopics: platformTopics.apply,
    confirmGone: platformTopics.deleteConfirmed,
    ...(options.log ? { log: options.log } : {}),
  });
  let platformTimer: NodeJS.Timeout | null = null;
  let lastRetention = 0;
  let timer: NodeJS.Timeout | null = null;
  let modelTimer: NodeJS.Timeout | null = null;
  let refreshing: Promise<unknown> | null = null;
  const stoppers: (() => Promise<void> | void)[] = [];
  const lists = createListsService({ catalog, viewed, models });
  const recommendations = createRecommendationsService({
    catalog,
    viewed,
    models,
    orderProducts: (shopId, ids, customerId) => store.orderProductIds(shopId, ids, customerId),
  });
  return {
    config,
    store,
    catalogIndex: catalog,
    keys,
    models,
    modelsAdmin: createModelsService({ pool: modelPool, models, catalog }),
    answers,
    bus,
    limiter: new RateLimiter(redis, config.redisPrefix),
    adminAuth,
    shops: createShopsService({ store, catalog, keys, keysChanged: () => bus.publish({ type: 'keys' }) }),
    catalog: catalogAdmin,
    storefrontSync,
    lists,
    platform,
    privacy,
    rulesets: createRulesetsService({ store, catalog }),
    recommendations,
    events: createEventsService({ store, catalog, viewed, committer: eventWriter }),
    eventWriter,
    tracking: createTrackingService({ catalog, committer: trackWriter, store, exposures }),
    trackWriter,
    attribution,
    experiments: createExperimentsService({ store, catalog, exposures }),
    widgets: createWidgetsService({ store, catalog, lists, recommendations }),
    exposures,
    ledger: createLedgerService({ store }),
    insights: createInsightsService({ store, catalog }),
    billingProviders,
    sealedTokens,
    upstream,
    reactivation: createReactivationService({
      providers: billingProviders,
      store,
      catalog,
      publicUrl: config.publicUrl,
    }),
    onetime: createOnetimeService({ providers: billingProviders, catalog }),
    billingWebhooks: createBillingWebhooks({ store, providers: billingProviders }),
    startBackground() {
      // Platform syncs and reconciliations each minute; retention once a day.
      platformTimer ??= setInterval(() => {
        const daily = Date.now() - lastRetention >= 86_400_000 ? privacy.retention() : Promise.resolve(0);
        if (Date.now() - lastRetention >= 86_400_000) lastRetention = Date.now();
        Promise.all([platform.tick(), daily]).catch((error: unknown) =>
          options.log?.warn({ err: error }, 'platform or retention work failed; retrying'),
        );
      }, 60_000);
      platformTimer.unref();
      if (timer) return;
      timer = setInterval(() => {
        if (refreshing) return;
        refreshing = Promise.all([
          catalog.refreshStale(),
          keys.refreshIfStale(),
          catalog.refreshEventCounts(),
          storefrontSync.applyPending(),
          trackCounted.run(),
        ])
          .catch((error: unknown) =>
            options.log?.warn({ err: error }, 'index refresh failed; serving the last loaded data'),
          )
          .finally(() => {
            refreshing = null;
          });
      }, config.indexRefreshMs);
      timer.unref();
      // Models: every shop at start, then a check per interval (other nodes' orders and events move the stamp too).
      models.warm(catalog.shopIds());
      modelTimer = setInterval(() => models.refresh(), Math.max(1000, modelIntervalMs / 10));
      modelTimer.unref();
    },
    onClose(stop) {
      stoppers.push(stop);
    },
    async close() {
      if (platformTimer) clearInterval(platformTimer);
      await platform.close();
      if (timer) clearInterval(timer);
      if (modelTimer) clearInterval(modelTimer);
      timer = null;
      modelTimer = null;
      // A refresh or sync under way finishes on the open database; registered jobs stop before it closes.
      await refreshing;
      for (const stop of stoppers.splice(0))
        await Promise.resolve(stop()).catch((error: unknown) =>
          options.log?.warn({ err: error }, 'a background job did not stop cleanly'),
        );
      models.close();
      await modelPool.close();
      await assembly.close();
      await catalog.copiesWritten();
      // Everything acknowledged is already committed; this writes what is still buffered.
      await eventWriter
        .close()
        .catch((error: unknown) => options.log?.error({ err: error }, 'could not write buffered events'));
      await trackWriter
        .close()
        .catch((error: unknown) => options.log?.error({ err: error }, 'could not write buffered tracking events'));
      await exposures
        .close()
        .catch((error: unknown) => options.log?.error({ err: error }, 'could not write buffered experiment visitors'));
      await bus.close();
      await billingProviders.close();
      await upstream.close();
      await redis?.quit().catch(() => undefined);
      failures?.stop();
      await store.close();
    },
  };
}
