import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CeilingRoute, rawGet, startCeiling } from './ceiling.js';
import { requestKinds, runTenantLoad, type TenantLoadResult } from './tenant-load.js';
import type { TenantShop } from './tenants-data.js';

/**
 * The answers the ceiling sends: for each kind of request of the mix, the server's answer to one
 * request of that kind for `shop` (the hottest), header lines included. Every shop's answers are of
 * the same make, so their sizes are those of the traffic.
 */
export async function captureAnswers(serverUrl: string, shop: TenantShop): Promise<CeilingRoute[]> {
  const routes: CeilingRoute[] = [];
  for (const { kind, prefix, path } of requestKinds(shop)) {
    await rawGet(`${serverUrl}${path}`);
    const answer = await rawGet(`${serverUrl}${path}`);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body}`);
    routes.push({ name: kind, prefix, answer });
  }
  return routes;
}

/**
 * The same traffic (the same draws of shops and kinds, the same connections and pace) against a
 * bare node:http server sending those answers' bytes, from as many processes as the server had:
 * what the load generator and this machine allow at best, latency included.
 */
export async function runCeiling(
  routes: readonly CeilingRoute[],
  workers: number,
  shops: readonly TenantShop[],
  options: Parameters<typeof runTenantLoad>[2],
): Promise<TenantLoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'rebound-tenant-ceiling-'));
  try {
    const ceiling = await startCeiling(dir, routes, workers);
    try {
      return await runTenantLoad(ceiling.url, shops, { ...options, onSecond: undefined });
    } finally {
      await ceiling.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
