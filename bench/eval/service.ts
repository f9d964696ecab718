import { join } from 'node:path';
import { startProcess, type Running } from '../lib/processes.js';

const TOKEN = 'eval-operator-token-0123456789abcdef';
const SHOP = 'retail';

/** A server started for the evaluation, with one shop and its public key. */
export interface Service {
  running: Running;
  publicKey: string;
  admin: (method: string, path: string, body?: unknown) => Promise<any>;
}

/** The answer of a public list request: product ids, or null when the endpoint is not there (404) or reports an unknown endpoint. */
export interface ListAnswer {
  ids: number[] | null;
  note?: string;
}

/** Starts the built server on a fresh SQLite file in `work` and creates the shop. */
export async function startService(work: string, port: number): Promise<Service> {
  const running = await startProcess(['dist/src/cli/main.js', 'serve'], {
    DATABASE_URL: `sqlite:${join(work, 'eval.db')}`, REBOUND_ADMIN_TOKEN: TOKEN, REBOUND_DEMO: 'false', LOG_LEVEL: 'warn', HOST: '127.0.0.1',
  }, port, '/readyz');
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${running.url}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 2000)}`);
    return res.json() as Promise<any>;
  };
  const created = await admin('POST', '/shops', { handle: SHOP, name: 'Online Retail (evaluation)', timezone: 'Europe/London' });
  await admin('PATCH', `/shops/${SHOP}`, { settings: UNLIMITED });
  return { running, publicKey: created.keys.public as string, admin };
}

/** Sends documents in batches to `PUT /shops/{shop}/{what}`; returns the elapsed milliseconds. */
export async function importBatches(service: Service, what: 'products' | 'orders', docs: readonly unknown[], batch: number): Promise<number> {
  const started = performance.now();
  let upserted = 0;
  for (let i = 0; i < docs.length; i += batch) {
    upserted += (await service.admin('PUT', `/shops/${SHOP}/${what}`, docs.slice(i, i + batch))).upserted as number;
  }
  if (upserted !== docs.length) throw new Error(`${what}: sent ${docs.length}, upserted ${upserted}`);
  return Math.round(performance.now() - started);
}

/** Creates a ruleset in the shop and returns its id. */
export async function createRuleset(service: Service, body: unknown): Promise<number> {
  return (await service.admin('POST', `/shops/${SHOP}/rulesets`, body)).ruleset.id as number;
}

/** All requests come from one address: the per-visitor limit meant for storefronts is lifted. */
const UNLIMITED = { rate_limit_public_per_minute: 100_000_000 };

/** Replaces the shop's settings (`PATCH /admin/v1/shops/{handle}`); `{}` restores the defaults (the lifted limit stays). */
export async function patchSettings(service: Service, settings: Record<string, number>): Promise<void> {
  await service.admin('PATCH', `/shops/${SHOP}`, { settings: { ...UNLIMITED, ...settings } });
}

/** Public API requests made so far and the summed time spent waiting on them. */
export const requestStats = { count: 0, ms: 0 };

/** GETs a public list path (with `?`), adding the key; ids of `data`. */
export async function getList(service: Service, pathAndQuery: string): Promise<ListAnswer> {
  const started = performance.now();
  const res = await fetch(`${service.running.url}/api/v1${pathAndQuery}&key=${service.publicKey}`);
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
