import { Agent, request } from 'node:http';
import { Random, WeightedSampler, zipfWeights } from '../../demo/random.js';
import type { TenantShop } from './tenants-data.js';

/** Popularity classes of the report: ranks 1-10 are hot, 11-100 warm, beyond 100 cold. */
export type Tier = 'hot' | 'warm' | 'cold';
const tierOf = (rank: number): Tier => (rank <= 10 ? 'hot' : rank <= 100 ? 'warm' : 'cold');

/** The request mix: each storefront call a widget makes, by share. */
const MIX: [kind: 'custom' | 'trending' | 'collections' | 'static', weight: number][] = [
  ['custom', 40],
  ['trending', 25],
  ['collections', 25],
  ['static', 10],
];

export interface TierStats {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface TenantLoadResult {
  requests: number;
  rps: number;
  errors: number;
  /** Distinct shops that received at least one request. */
  shopsTouched: number;
  tiers: Record<Tier, TierStats>;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(2));
}

/** One storefront request for a shop: the kind drawn from the mix, its parameters from the shop's own ids. */
function pathFor(shop: TenantShop, rng: Random, kind: (typeof MIX)[number][0]): string {
  const product = () => shop.productIds[rng.int(0, shop.productIds.length - 1)];
  const key = `key=${shop.key}`;
  switch (kind) {
    case 'custom':
      return `/api/v1/custom/id/${shop.rulesetIds[0]}?${key}&shop_product_ids=${product()}`;
    case 'trending':
      return `/api/v1/products/trending_products?${key}&limit=10`;
    case 'collections': {
      const collection = shop.collectionIds[rng.int(0, shop.collectionIds.length - 1)];
      return `/api/v1/products/collections?${key}&shop_collection_ids=${collection}&limit=10`;
    }
    case 'static':
      return `/api/v1/products/static?${key}&ids=${product()},${product()},${product()}`;
  }
}

/**
 * One request of each kind of the mix for `shop`, with the prefix every path of that kind starts
 * with (a ceiling sends each kind its own answer's bytes).
 */
export function requestKinds(shop: TenantShop): { kind: string; prefix: string; path: string }[] {
  const rng = new Random(7);
  return MIX.map(([kind]) => {
    const path = pathFor(shop, rng, kind);
    return { kind, prefix: kind === 'custom' ? '/api/v1/custom/' : path.slice(0, path.indexOf('?')), path };
  });
}

/**
 * How requests travel: `shared` — every shop over the same `connections` keep-alive connections,
 * as from a proxy or CDN in front; `per-shop` — each shop's requests over keep-alive connections of
 * its own (at most two open a shop), as from its visitors' browsers; `close` — a new connection
 * for every request.
 */
export type ConnectionMode = 'shared' | 'per-shop' | 'close';

/** The agent that carries one shop's request in each connection mode. */
function agents(mode: ConnectionMode, connections: number): (shop: number) => Agent | false {
  if (mode === 'close') return () => false;
  if (mode === 'shared') {
    const shared = new Agent({ keepAlive: true, maxSockets: connections });
    return () => shared;
  }
  const own = new Map<number, Agent>();
  return (shop) => {
    const agent = own.get(shop) ?? new Agent({ keepAlive: true, maxSockets: 2 });
    own.set(shop, agent);
    return agent;
  };
}

/**
 * Closed-loop storefront traffic over many shops: `connections` clients each send a request, wait
 * for the answer, and send the next, for `warmupSeconds` unrecorded (every hot shop's first
 * request is a load) and then `seconds` recorded. Shops are drawn by Zipf rank (exponent `s`).
 * `bustCache` adds `bust_cache=yes`, so every answer is computed (the server's work, not the cache's).
 */
export async function runTenantLoad(
  base: string,
  shops: readonly TenantShop[],
  options: {
    connections: number;
    seconds: number;
    warmupSeconds: number;
    s: number;
    seed?: number;
    connectionMode?: ConnectionMode;
    bustCache?: boolean;
    /**
     * Requests a second over all connections: each connection sends its next request at its turn
     * of that pace (at once when it is late), so the builds compared get the same offered load. A
     * closed loop instead gives a faster server more concurrent requests, and its quick requests
     * queue behind more work.
     */
    rate?: number;
    onSecond?: (done: number) => void;
  },
): Promise<TenantLoadResult> {
  const url = new URL(base);
  const agentOf = agents(options.connectionMode ?? 'shared', options.connections);
  const used = new Set<Agent>();
  const shopSampler = new WeightedSampler(zipfWeights(shops.length, options.s));
  const kindSampler = new WeightedSampler(MIX.map(([, w]) => w));
  const latencies: Record<Tier, number[]> = { hot: [], warm: [], cold: [] };
  const touched = new Set<number>();
  let errors = 0;
  let done = 0;
  const recordFrom = performance.now() + options.warmupSeconds * 1000;
  const deadline = recordFrom + options.seconds * 1000;
  const send = (shop: number, path: string) =>
    new Promise<number>((resolve) => {
      const agent = agentOf(shop);
      if (agent) used.add(agent);
      const req = request({ host: url.hostname, port: url.port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      req.end();
    });
  const ticker = setInterval(() => options.onSecond?.(done), 1000);
  await Promise.all(
    Array.from({ length: options.connections }, async (_, c) => {
      const rng = new Random((options.seed ?? 1) * 1000 + c);
      const every = options.rate ? (1000 * options.connections) / options.rate : 0;
      let turn = performance.now() + (c * every) / options.connections;
      while (performance.now() < deadline) {
        if (every > 0) {
          const wait = turn - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          turn += every;
        }
        const index = shopSampler.draw(rng);
        const path = pathFor(shops[index]!, rng, MIX[kindSampler.draw(rng)]![0]);
        const started = performance.now();
        const status = await send(index, options.bustCache ? `${path}&bust_cache=yes` : path);
        touched.add(index);
        if (started < recordFrom) continue;
        latencies[tierOf(index + 1)].push(performance.now() - started);
        done++;
        if (status !== 200) errors++;
      }
    }),
  );
  clearInterval(ticker);
  for (const agent of used) agent.destroy();
  const stats = (values: number[]): TierStats => {
    const sorted = Float64Array.from(values).sort();
    return {
      requests: values.length,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: percentile(sorted, 100),
    };
  };
  return {
    requests: done,
    rps: Math.round(done / options.seconds),
    errors,
    shopsTouched: touched.size,
    tiers: { hot: stats(latencies.hot), warm: stats(latencies.warm), cold: stats(latencies.cold) },
  };
}
