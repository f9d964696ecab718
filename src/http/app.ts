import { createServer, type ServerOptions } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config/config.js';
import { errorBody } from '../domain/errors.js';
import type { TrustProxy } from '../config/server.js';
import type { Services } from '../compose.js';
import { registerAdminAuth, registerAdminShop } from './plugins/admin-auth.js';
import { registerApiKeyAuth } from './plugins/auth.js';
import { answerClientError, MAX_HEADER_BYTES } from './plugins/client-errors.js';
import { limitConnectionsPerClient, proxyPeers } from './plugins/connection-limit.js';
import { registerRequestEncoding } from './plugins/content-encoding.js';
import { registerErrorHandling } from './plugins/errors.js';
import { loggerOptions, requestId, requestLogger } from './plugins/logging.js';
import { registerMetrics } from './plugins/metrics.js';
import { registerAdminRateLimit, registerApiRateLimit } from './plugins/rate-limit.js';
import { registerResidentShop } from './plugins/resident-shop.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerParamsReader } from './plugins/params.js';
import { registerAuthFailureLimit } from './plugins/auth-failures.js';
import { registerCustomerSignatures } from './plugins/customer-signature.js';
import { registerStorefrontCors } from './plugins/storefront-cors.js';
import { AnswerLane } from './plugins/answer-lane.js';
import { registerStorefrontBodies } from './plugins/bodies.js';
import { BULK_BODY_LIMIT, registerNdjson } from './routes/admin/bulk.js';
import { registerJsonBodies } from './routes/admin/json-array.js';
import { catalogRoutes } from './routes/admin/catalog.js';
import { rulesetRoutes } from './routes/admin/rulesets.js';
import { shopRoutes } from './routes/admin/shops.js';
import { nodeRoutes } from './routes/admin/node.js';
import { customPostRoute, customRoute } from './routes/api/custom.js';
import { eventRoutes } from './routes/api/events.js';
import { eventBulkRoute } from './routes/api/event-bulk.js';
import { createBulkEventsService } from '../services/events/bulk.js';
import { createSubscribeService } from '../services/billing/subscribe.js';
import { trackRoutes } from './routes/api/track.js';
import { experimentRoutes } from './routes/admin/experiments.js';
import { billingRoutes } from './routes/api/billing.js';
import { adminBillingRoutes } from './routes/admin/billing.js';
import { billingProviderRoutes } from './routes/admin/billing-provider.js';
import { platformRoutes } from './routes/admin/platform.js';
import { consoleApiRoutes } from './routes/admin/console-api.js';
import { modelRoutes } from './routes/admin/models.js';
import { billingPageRoutes } from './routes/billing-page.js';
import { webhookRoutes } from './routes/webhooks.js';
import { adminEventRoutes } from './routes/admin/events.js';
import { consoleRoutes } from './routes/console.js';
import { demoAssetRoutes } from './routes/demo-assets.js';
import { widgetRoutes } from './routes/widget.js';
import { healthRoutes } from './routes/health.js';
import { listRoutes } from './routes/api/lists.js';
import { sourcesRoute } from './routes/api/sources.js';
import { widgetConfigRoute } from './routes/api/widget-config.js';
import { widgetAdminRoutes } from './routes/admin/widgets.js';
import { BulkSlots, bulkSlotsFor } from './plugins/bulk-slots.js';
import { sharedSchemas } from './schemas/product.js';
import { serializeAsReturned } from './schemas/serializer.js';

const HTML_HEADERS = { 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' };

/** A hop count as the function Fastify's types take: the first n hops from this server are trusted. */
function trustProxyOption(setting: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/** A slow sender cannot hold a socket: headers, whole request and idle keep-alive are bounded, checked every second. */
function serverOptions(timeouts: Config['timeouts']): ServerOptions {
  return {
    headersTimeout: timeouts.headersTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, timeouts.headersTimeoutMs),
    maxHeaderSize: MAX_HEADER_BYTES,
  };
}

/** The router's own refusals (before any route or hook runs) answer like every other error: named, JSON, nosniff. */
const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, _request, reply) => {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path segment is too long: path parameters hold at most 100 characters.'
      : error.code === 'FST_ERR_BAD_URL'
        ? 'The URL path is not valid: a percent-encoded segment does not decode.'
        : 'The request could not be routed.';
  const status = error.statusCode ?? 400;
  void (reply as FastifyReply)
    .status(status)
    .header('x-content-type-options', 'nosniff')
    .send(errorBody(status === 414 ? 'path_too_long' : status >= 500 ? 'internal_error' : 'invalid_path', message));
};

const RECHARGE_PREFIX = '/api/v1/recharge/';

function rechargeAsBilling(url: string): string {
  return url.startsWith(RECHARGE_PREFIX) ? `/api/v1/billing/${url.slice(RECHARGE_PREFIX.length)}` : url;
}

export interface AppOptions {
  /** Fastify logger settings; tests pass false. */
  logger?: FastifyServerOptions['logger'];
  /**
   * Runs once the shared schemas and the error handler are in place,
   * before any route: tests add onRoute and reply hooks here.
   */
  beforeRoutes?: (app: FastifyInstance) => void;
}

/** Builds the HTTP application on composed services. No listen, no environment reads. */
export async function buildApp(services: Services, config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const lane = new AnswerLane();
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    childLoggerFactory: requestLogger,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    // A client's X-Request-Id is kept only when it is short and plain (it reaches the logs); else a new one.
    requestIdHeader: false,
    genReqId: requestId,
    // Only trusted proxies may name the client: otherwise one visitor could take every visitor's rate-limit bucket.
    trustProxy: trustProxyOption(config.trustProxy),
    // A repeat of a cached storefront GET is answered by the lane, before Fastify (plugins/answer-lane.ts).
    serverFactory: (handler) => {
      const server = createServer(serverOptions(config.timeouts), (req, res) => {
        if (!lane.serve(req, res, handler)) handler(req, res);
      });
      limitConnectionsPerClient(server, config.connectionsPerClient, proxyPeers(config.trustProxy));
      return server;
    },
    frameworkErrors,
    clientErrorHandler: answerClientError,
    // The platform's name for the billing endpoints: one set of routes answers both (docs/api.md, "Aliases").
    rewriteUrl: (request) => rechargeAsBilling(request.url ?? '/'),
  });
  app.decorate('answerLane', lane);
  for (const schema of sharedSchemas) app.addSchema(schema);
  app.setSerializerCompiler(serializeAsReturned);
  registerParamsReader(app);
  registerErrorHandling(app);
  registerRequestEncoding(app);
  // Every answer is read as its declared type; every HTML page, whoever renders it, cannot be framed.
  app.addHook('onSend', (_request, reply, payload, done) => {
    void reply.header('x-content-type-options', 'nosniff');
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      for (const [name, value] of Object.entries(HTML_HEADERS))
        if (!reply.hasHeader(name)) void reply.header(name, value);
    }
    done(null, payload);
  });
  const authFailures = registerAuthFailureLimit(app, services.limiter);
  options.beforeRoutes?.(app);
  await registerOpenApi(app, config.publicUrl);
  healthRoutes(app, services.store);
  const metrics = registerMetrics(app, services);
  demoAssetRoutes(app);
  widgetRoutes(app, { keys: services.keys, catalog: services.catalogIndex });
  await app.register(async (web) => consoleRoutes(web));

  await app.register(
    async (api) => {
      // Storefront pages call the storefront routes from the browser, from any origin; billing is not one of them.
      registerStorefrontCors(api);
      registerApiKeyAuth(api, services.keys);
      registerResidentShop(api, services.catalogIndex);
      registerApiRateLimit(api, services.limiter, services.catalogIndex);
      registerCustomerSignatures(api, (shopId) => services.catalogIndex.essentials(shopId));
      sourcesRoute(api); // first: it collects the list routes as they are added
      listRoutes(api, { lists: services.lists, cache: services.answers, lane });
      const customDeps = {
        recommendations: services.recommendations,
        lists: services.lists,
        experiments: services.experiments,
        cache: services.answers,
        settings: (shopId: number) => services.catalogIndex.settings(shopId),
        lane,
      };
      customRoute(api, customDeps);
      widgetConfigRoute(api, { widgets: services.widgets, lists: services.lists, cache: services.answers });
      // The POST endpoints read any body storefront code sends; the GET hot paths carry none of that machinery.
      await api.register(async (posts) => {
        await registerStorefrontBodies(posts);
        eventRoutes(posts, services.events);
        customPostRoute(posts, customDeps);
        trackRoutes(posts, services.tracking);
        billingRoutes(posts, {
          reactivation: services.reactivation,
          onetime: services.onetime,
          subscribe: createSubscribeService({ providers: services.billingProviders, catalog: services.catalogIndex }),
        });
      });
    },
    { prefix: '/api/v1' },
  );

  // The platform widget's batched events; its key comes in the X-Rebuy-User-Token header.
  await app.register(
    async (v2) => {
      registerStorefrontCors(v2);
      registerApiKeyAuth(v2, services.keys);
      // The shop's settings (its own rate limits) are read before the limit is applied, as on /api/v1.
      registerResidentShop(v2, services.catalogIndex);
      registerApiRateLimit(v2, services.limiter, services.catalogIndex);
      eventBulkRoute(
        v2,
        createBulkEventsService({
          events: services.events,
          tracking: services.tracking,
          catalog: services.catalogIndex,
        }),
      );
    },
    { prefix: '/api/v2' },
  );

  await app.register(
    async (admin) => {
      // Bulk bodies take REBOUND_MAX_BODY_MB at most, and as many are read at once as the budget holds.
      const bulkSlots = new BulkSlots(bulkSlotsFor(config.memoryBudgetMb, config.maxBodyMb));
      admin.addHook('onRoute', (route) => {
        if (route.bodyLimit !== BULK_BODY_LIMIT) return;
        route.bodyLimit = config.maxBodyMb * 1024 * 1024;
        bulkSlots.guard(route);
      });
      registerNdjson(admin);
      registerJsonBodies(admin);
      registerAdminAuth(admin, services.adminAuth);
      registerAdminRateLimit(admin, services.limiter, services.catalogIndex);
      registerAdminShop(admin, services.shops);
      shopRoutes(admin, services.shops);
      nodeRoutes(admin, services.catalogIndex);
      catalogRoutes(admin, { catalog: services.catalog });
      rulesetRoutes(admin, { rulesets: services.rulesets, recommendations: services.recommendations });
      adminEventRoutes(admin, { events: services.events });
      adminBillingRoutes(admin, { ledger: services.ledger });
      billingProviderRoutes(admin, { providers: services.billingProviders });
      platformRoutes(admin, { shops: services.shops, platform: services.platform, privacy: services.privacy });
      consoleApiRoutes(admin, {
        shops: services.shops,
        insights: services.insights,
        canStoreTokens: services.config.secretKey !== null,
      });
      modelRoutes(admin, { models: services.modelsAdmin });
      experimentRoutes(admin, { experiments: services.experiments, attribution: services.attribution });
      widgetAdminRoutes(admin, { shops: services.shops, widgets: services.widgets });
    },
    { prefix: '/admin/v1' },
  );

  await app.register(async (pages) => billingPageRoutes(pages, services.reactivation));
  await app.register(
    async (hooks) =>
      webhookRoutes(hooks, {
        billing: services.billingWebhooks,
        storefront: services.storefrontSync,
        limiter: services.limiter,
      }),
    {
      prefix: '/webhooks',
    },
  );

  // The lane decides client addresses as Fastify does only when no proxy names them, and limits only when this
  // node counts them: behind a proxy, or with Redis counting, the routes answer.
  if (config.trustProxy === false && services.limiter.decidesLocally) {
    lane.attach({
      keys: services.keys,
      catalog: services.catalogIndex,
      answers: services.answers.local,
      store: (key, body) => services.answers.set(key, body),
      limiter: services.limiter,
      version: (catalog) => services.lists.version(catalog),
      blocked: authFailures.blocked,
      series: (route) => metrics.requests.of(route, 'GET', 200),
      logsRequests: () =>
        (app.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? false,
    });
    services.answers.local.onShopDeleted((shopId) => lane.forgetShop(shopId));
  }
  app.addHook('preClose', (done) => {
    lane.close();
    done();
  });
  return app;
}
