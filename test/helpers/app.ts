import type { LookupFunction } from 'node:net';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Logger } from 'pino';
import { loadConfig, type Config } from '../../src/config/config.js';
import { compose, type Services } from '../../src/compose.js';
import { type AppOptions, buildApp } from '../../src/http/app.js';
import type { Backend } from './backends.js';

export const ADMIN_TOKEN = 'test-operator-token-0123456789abcdef';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  config: Config;
  /** An admin request with the operator token (or the given bearer). */
  admin(method: InjectOptions['method'], url: string, body?: unknown, bearer?: string): Promise<LightMyRequestResponse>;
  /** Creates a shop through the admin API and returns its keys. */
  createShop(handle: string, extra?: Record<string, unknown>): Promise<{ id: number; public: string; private: string }>;
  close(): Promise<void>;
}

/** The real app on a fresh database of the given backend, driven through inject. */
export async function startApp(
  backend: Backend,
  env: Record<string, string> = {},
  options: AppOptions & {
    /** Resolves upstream host names (a name of the test's own may point at loopback). */
    upstreamLookup?: LookupFunction;
    /** The services' logger (a test that reads what was logged). */
    log?: Logger;
  } = {},
): Promise<TestApp> {
  const url = await backend.url();
  const config = loadConfig({
    DATABASE_URL: url,
    REBOUND_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    REBOUND_DEMO: 'false',
    ...env,
  });
  const services = await compose(config, {
    ...(options.upstreamLookup ? { upstreamLookup: options.upstreamLookup } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const app = await buildApp(services, config, { logger: false, ...options });
  const admin: TestApp['admin'] = (method, path, body, bearer = ADMIN_TOKEN) =>
    app.inject({
      method,
      url: path,
      headers: { authorization: `Bearer ${bearer}` },
      ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
    });
  return {
    app,
    services,
    config,
    admin,
    async createShop(handle, extra = {}) {
      const res = await admin('POST', '/admin/v1/shops', { handle, name: `Shop ${handle}`, ...extra });
      if (res.statusCode !== 201) throw new Error(`shop creation failed: ${res.body}`);
      const body = res.json();
      return { id: body.shop.id, public: body.keys.public, private: body.keys.private };
    },
    async close() {
      await app.close();
      await services.close();
    },
  };
}
