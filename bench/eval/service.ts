import { createServer } from 'node:net';
import { join } from 'node:path';
import { startProcess, type Running } from '../lib/processes.js';

const TOKEN = 'eval-operator-token-0123456789abcdef';

/** A server started for the evaluation. */
export interface Service {
  running: Running;
  admin: (method: string, path: string, body?: unknown) => Promise<any>;
}

/** A shop of the evaluation server and its public key. */
export interface EvalShop {
  service: Service;
  handle: string;
  key: string;
}

/** The answer of a public list request: product ids, or null when the endpoint is not there (404) or reports an unknown endpoint. */
export interface ListAnswer {
  ids: number[] | null;
  note?: string;
}

/** A port the OS just handed out (bound on port 0, read back, released): the server is started on it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the built server on a fresh SQLite file in `work`. */
export async function startService(work: string): Promise<Service> {
  const running = await startProcess(
    ['dist/src/cli/main.js', 'serve'],
    {
      DATABASE_URL: `sqlite:${join(work, 'eval.db')}`,
      REBOUND_ADMIN_TOKEN: TOKEN,
      REBOUND_DEMO: 'false',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
    },
    await freePort(),
    '/readyz',
  );
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${running.url}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 2000)}`);
    return res.json() as Promise<any>;
  };
  return { running, admin };
}

/** All requests come from one address: the per-visitor limit meant for storefronts is lifted. */
const UNLIMITED = { rate_limit_public_per_minute: 100_000_000 };

/** Creates a shop (default settings, the rate limit lifted). */
export async function createShop(service: Service, handle: string, name: string): Promise<EvalShop> {
  const created = await service.admin('POST', '/shops', { handle, name, timezone: 'Europe/London' });
  await service.admin('PATCH', `/shops/${handle}`, { settings: UNLIMITED });
  return { service, handle, key: created.keys.public as string };
}

/** Sends documents in batches to `PUT /shops/{shop}/{what}`; returns the elapsed milliseconds. */
export async function importBatches(shop: EvalShop, what: 'products' | 'orders', docs: readonly unknown[], batch: number): Promise<number> {
  const started = performance.now();
  let upserted = 0;
  for (let i = 0; i < docs.length; i += batch) {
    upserted += (await shop.service.admin('PUT', `/shops/${shop.handle}/${what}`, docs.slice(i, i + batch))).upserted as number;
  }
  if (upserted !== docs.length) throw new Error(`${what}: sent ${docs.length}, upserted ${upserted}`);
  return Math.round(performance.now() - started);
}

/** Creates a ruleset in the shop and returns its id. */
export async function createRuleset(shop: EvalShop, body: unknown): Promise<number> {
  return (await shop.service.admin('POST', `/shops/${shop.handle}/rulesets`, body)).ruleset.id as number;
}

/** Waits until the shop's model is built (asking for its status starts the first build); returns the status. */
export async function modelBuilt(shop: EvalShop, timeoutMs = 600_000): Promise<Record<string, number | string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (await shop.service.admin('GET', `/shops/${shop.handle}/models/status`)).data;
    if (status) return status;
    if (Date.now() > deadline) throw new Error(`${shop.handle}: no model after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Public API requests made so far and the summed time spent waiting on them. */
export const requestStats = { count: 0, ms: 0 };

/** GETs a public list path (with `?`), adding the key; ids of `data`. */
export async function getList(shop: EvalShop, pathAndQuery: string): Promise<ListAnswer> {
  const started = performance.now();
  const res = await fetch(`${shop.service.running.url}/api/v1${pathAndQuery}&key=${shop.key}`);
  const text = await res.text();
  requestStats.count++;
  requestStats.ms += performance.now() - started;
  if (res.status === 404) return { ids: null, note: `${res.status} ${text.slice(0, 200)}` };
  if (!res.ok) throw new Error(`GET ${pathAndQuery}: ${res.status} ${text.slice(0, 500)}`);
  const body = JSON.parse(text) as { data: { id: number }[]; metadata?: { errors?: { code: string; message: string }[] } };
  const unknown = body.metadata?.errors?.find((e) => e.code === 'unknown_endpoint');
  if (unknown) return { ids: null, note: unknown.message };
  return { ids: body.data.map((p) => p.id) };
}

/** Runs `fn` over `items` with at most `concurrency` in flight; results in input order. */
export async function mapPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}
