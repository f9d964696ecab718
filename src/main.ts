import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Config } from './config/config.js';
import { compose, type Services } from './compose.js';
import { buildApp } from './http/app.js';
import { loggerOptions } from './http/plugins/logging.js';
import { gracefulShutdown, stopOnSignals } from './shutdown.js';
import { withStartupLock } from './store/startup-lock.js';
import { DEMO_HANDLE, type DemoSeedResult } from './services/demo.js';
import { demoKeysUnshown, seedDemoOnStart } from './services/demo-start.js';

/**
 * Process entry of the server: compose → (seed demo) → buildApp → listen; drains on SIGTERM / SIGINT (src/shutdown.ts).
 * `listen` replaces listening on the configured port (a worker that takes its connections from its primary).
 */
export async function serve(config: Config, listen?: (app: FastifyInstance) => Promise<void>): Promise<void> {
  const started = performance.now();
  const log = pino(loggerOptions(config.logLevel) as pino.LoggerOptions);
  // Several nodes starting together: one migrates and seeds, the others wait and then find it done.
  const { services, seeded, generatedToken } = await withStartupLock(
    config.databaseUrl,
    () => prepare(config, log),
    () => log.info('another process is starting on this database (migrations, demo seed): waiting for it'),
  );
  let base = config.publicUrl;
  try {
    // Before the first shop's load measures the baseline the memory budget is divided from.
    await services.store.settle();
    const app = await buildApp(services, config);
    stopOnSignals(gracefulShutdown({ app, services, log, graceMs: config.shutdownGraceMs }));
    if (listen) await listen(app);
    else {
      const address = await app.listen({ port: config.port, host: config.host });
      // PORT=0 lets the system choose: whoever started us needs to learn which port it chose.
      if (config.port === 0) process.stdout.write(`Listening on ${address}\n`);
      // Without REBOUND_PUBLIC_URL the default names the configured port, which PORT=0 is not.
      if (config.port === 0 && new URL(base).port === '0') base = address;
    }
  } catch (error) {
    // Nothing was shown: the next start generates a token again (and builds the demo again).
    if (generatedToken) await services.adminAuth.forgetUnshown(generatedToken).catch(() => undefined);
    if (seeded?.keys) await demoKeysUnshown(services.store).catch(() => undefined);
    throw error;
  }
  // Shown once the server serves, so a start that fails cannot be the only one that showed them.
  if (generatedToken) printAdminToken(log, generatedToken);
  if (seeded) printDemoWelcome(base, seeded);
  services.startBackground();
  log.info({ ms: Math.round(performance.now() - started), shops: (await services.shops.listShops()).length }, 'ready');
}

/** Start-up work done once per database: migrations (in compose), the operator token, the demo shop. */
async function prepare(
  config: Config,
  log: pino.Logger,
): Promise<{ services: Services; seeded: DemoSeedResult | null; generatedToken: string | null }> {
  const services = await compose(config, { log });
  let generatedToken: string | null = null;
  try {
    // An upstream token this key cannot open stops start-up with one line (the CLI prints it).
    await services.sealedTokens.checkStartup();
    generatedToken = await services.adminAuth.ensureToken();
    const seeded = config.demo ? await seedDemoOnStart(services, config.publicUrl) : null;
    return { services, seeded, generatedToken };
  } catch (error) {
    if (generatedToken) await services.adminAuth.forgetUnshown(generatedToken).catch(() => undefined);
    await services.close();
    throw error;
  }
}

function printAdminToken(log: pino.Logger, token: string): void {
  log.warn(
    'No REBOUND_ADMIN_TOKEN set: generated an operator token, kept hashed in the database. It is shown only now.',
  );
  process.stdout.write(`\nAdmin token (shown once): ${token}\n`);
}

/** The demo's keys and requests to try, once the server listens (so its address is known). */
function printDemoWelcome(base: string, seeded: DemoSeedResult): void {
  if (!seeded.keys) return;
  const key = seeded.keys.public;
  const [a] = seeded.sample.productIds;
  const [first, second, , , fifth] = seeded.sample.rulesetIds;
  const vip = seeded.sample.vipCustomerId;
  const handles = seeded.sample.handles.join(',');
  const lines = [
    '',
    `Demo shop "${DEMO_HANDLE}" created: ${Object.entries(seeded.counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}.`,
    `  public key:  ${seeded.keys.public}`,
    `  private key: ${seeded.keys.private}`,
    '  (keys are stored hashed and shown only now; `npm run rebound -- keys demo` issues new ones)',
    '',
    'Try:',
    `  curl '${base}/api/v1/custom/id/${first}?key=${key}&shop_product_ids=${a}&format=pretty'`,
    `  curl '${base}/api/v1/custom/id/${second}?key=${key}&cart_subtotal=180.00&format=pretty'`,
    ...(vip !== null && fifth !== undefined
      ? [`  curl '${base}/api/v1/custom/id/${fifth}?key=${key}&shop_customer_id=${vip}&format=pretty'`]
      : []),
    `  curl '${base}/api/v1/products/static?key=${key}&handles=${handles}&country_code=DE&format=pretty'`,
    '',
    'Reactivation context for a cancelled subscriber (private key):',
    `  curl '${base}/api/v1/billing/reactivate?key=${seeded.keys.private}&billing_customer_id=80000&format=pretty'`,
    '',
    `Storefront widget demo: ${base}/widget-demo?key=${encodeURIComponent(key)}`,
    `API docs: ${base}/docs`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
