import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config/config.js';
import type { Services } from '../compose.js';
import { registerAdminAuth } from './plugins/admin-auth.js';
import { registerApiKeyAuth } from './plugins/auth.js';
import { registerErrorHandling } from './plugins/errors.js';
import { loggerOptions } from './plugins/logging.js';
import { registerMetrics } from './plugins/metrics.js';
import { registerAdminRateLimit, registerApiRateLimit } from './plugins/rate-limit.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerParamsReader } from './plugins/params.js';
import { registerStorefrontBodies } from './plugins/bodies.js';
import { registerNdjson } from './routes/admin/bulk.js';
import { catalogRoutes } from './routes/admin/catalog.js';
import { rulesetRoutes } from './routes/admin/rulesets.js';
import { shopRoutes } from './routes/admin/shops.js';
import { customRoute } from './routes/api/custom.js';
import { eventRoutes } from './routes/api/events.js';
import { trackRoutes } from './routes/api/track.js';
import { experimentRoutes } from './routes/admin/experiments.js';
import { billingRoutes } from './routes/api/billing.js';
import { adminBillingRoutes } from './routes/admin/billing.js';
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
import { sharedSchemas } from './schemas/product.js';

const HTML_HEADERS = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' };

export interface AppOptions {
  /** Fastify logger settings; tests pass false. */
  logger?: FastifyServerOptions['logger'];
}

/** Builds the HTTP application on composed services. No listen, no environment reads. */
export async function buildApp(services: Services, config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    requestIdHeader: 'x-request-id',
  });
  for (const schema of sharedSchemas) app.addSchema(schema);
  registerParamsReader(app);
  registerErrorHandling(app);
  // Every HTML page, whoever renders it, gets the headers that keep it from being framed or sniffed.
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      for (const [name, value] of Object.entries(HTML_HEADERS)) if (!reply.hasHeader(name)) void reply.header(name, value);
    }
    return payload;
  });
  await registerOpenApi(app, config.publicUrl);
  healthRoutes(app, services.store);
  registerMetrics(app, services);
  demoAssetRoutes(app);
  widgetRoutes(app, { keys: services.keys, catalog: services.catalog });
  await app.register(async (web) => consoleRoutes(web));

  await app.register(async (api) => {
    // Storefront pages call these from the browser, from any origin.
    await api.register(cors, { origin: '*', methods: ['GET', 'POST', 'OPTIONS'], allowedHeaders: ['Content-Type', 'X-Api-Key'], maxAge: 86_400 });
    await registerStorefrontBodies(api);
    registerApiKeyAuth(api, services.keys);
    registerApiRateLimit(api, services.limiter, services.catalog);
    sourcesRoute(api); // first: it collects the list routes as they are added
    listRoutes(api, { products: services.products, cache: services.answers });
    customRoute(api, { recommendations: services.recommendations, products: services.products, experiments: services.experiments, cache: services.answers });
    eventRoutes(api, services.events);
    trackRoutes(api, services.tracking);
    billingRoutes(api, { shops: services.shops, reactivation: services.reactivation, onetime: services.onetime });
  }, { prefix: '/api/v1' });

  await app.register(async (admin) => {
    registerNdjson(admin);
    registerAdminAuth(admin, services.adminAuth);
    registerAdminRateLimit(admin, services.limiter, services.catalog);
    shopRoutes(admin, services.shops);
    catalogRoutes(admin, { shops: services.shops, catalog: services.catalogAdmin });
    rulesetRoutes(admin, { shops: services.shops, rulesets: services.rulesets, recommendations: services.recommendations });
    adminEventRoutes(admin, { shops: services.shops, events: services.events });
    adminBillingRoutes(admin, { shops: services.shops, ledger: services.ledger });
    consoleApiRoutes(admin, { shops: services.shops, insights: services.insights });
    modelRoutes(admin, { shops: services.shops, models: services.modelsAdmin });
    experimentRoutes(admin, { shops: services.shops, experiments: services.experiments, attribution: services.attribution });
  }, { prefix: '/admin/v1' });

  await app.register(async (pages) => billingPageRoutes(pages, services.reactivation));
  await app.register(async (hooks) => webhookRoutes(hooks, { billing: services.billingWebhooks, storefront: services.storefrontSync }), { prefix: '/webhooks' });

  return app;
}
