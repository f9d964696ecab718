import type { FastifyInstance } from 'fastify';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Services } from '../../compose.js';
import { Errors, nonJson } from '../schemas/errors.js';
import { registerPlatformMetrics } from './platform-metrics.js';
import { metricsText } from './cluster-metrics.js';
import { RequestMetrics } from './request-metrics.js';

/**
 * Prometheus metrics at `/metrics` (docs/operations.md): requests and latency per route and status,
 * cache hits and misses, the event buffer and its commits, index rebuilds, the database pool.
 * Each app has its own registry, so several apps in one process (tests) do not collide.
 */
export function registerMetrics(
  app: FastifyInstance,
  services: Services,
): { registry: Registry; requests: RequestMetrics } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new RequestMetrics(registry);
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('rebound_cache_hits', "answers served from this node's cache (since start)", () => services.answers.local.hits);
  gauge('rebound_cache_misses', 'answers computed (since start)', () => services.answers.local.misses);
  gauge('rebound_cache_remote_hits', 'answers found in Redis (since start)', () => services.answers.remoteHits);
  gauge(
    'rebound_cache_remote_errors',
    'Redis cache errors served around (since start)',
    () => services.answers.remoteErrors,
  );
  gauge('rebound_event_buffer_depth', 'events waiting for their batch commit', () => services.eventWriter.depth);
  gauge('rebound_event_batches', 'event batches committed (since start)', () => services.eventWriter.batches);
  gauge('rebound_events_committed', 'events committed (since start)', () => services.eventWriter.committed);
  gauge(
    'rebound_event_commit_seconds',
    'duration of the last event batch commit',
    () => services.eventWriter.lastCommitMs / 1000,
  );
  gauge(
    'rebound_track_buffer_depth',
    'tracking requests waiting for their batch commit',
    () => services.trackWriter.depth,
  );
  gauge(
    'rebound_track_requests_committed',
    'tracking requests committed (since start)',
    () => services.trackWriter.committed,
  );
  gauge(
    'rebound_experiment_visitors_written',
    'experiment visitors written (since start)',
    () => services.exposures.written,
  );
  gauge(
    'rebound_experiment_visitors_dropped',
    'experiment visitors not recorded because the buffer was full (since start)',
    () => services.exposures.dropped,
  );
  gauge('rebound_index_rebuilds', 'full read-model rebuilds (since start)', () => services.catalogIndex.rebuilds);
  gauge(
    'rebound_index_last_rebuild_seconds',
    'duration of the last full read-model rebuild',
    () => services.catalogIndex.lastRebuildMs / 1000,
  );
  const residency = services.catalogIndex.residency;
  gauge('rebound_shop_loads', 'shops loaded into memory on demand (since start)', () => residency.loads);
  gauge(
    'rebound_shop_snapshot_loads',
    "shop loads that read the shop's load snapshot instead of its parts (since start)",
    () => services.catalogIndex.snapshotLoads,
  );
  gauge(
    'rebound_shop_evictions',
    'shops evicted to stay within the memory budget (since start)',
    () => residency.evictions,
  );
  gauge('rebound_resident_shops', 'shops whose read models are in memory', () => residency.residentShops);
  gauge('rebound_resident_estimated_bytes', "estimated bytes of the resident shops' state", () =>
    residency.estimatedBytes(),
  );
  gauge(
    'rebound_resident_allowance_bytes',
    "estimated bytes the shops' state may take within the memory budget",
    () => {
      const allowance = residency.allowanceBytes;
      return Number.isFinite(allowance) ? allowance : -1;
    },
  );
  const pool = services.store.poolStats;
  gauge('rebound_db_pool_total', 'database connections open', () => pool().total);
  gauge('rebound_db_pool_idle', 'database connections idle', () => pool().idle);
  gauge('rebound_db_pool_waiting', 'queries waiting for a connection', () => pool().waiting);
  registerPlatformMetrics(registry);

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.of(route, request.method, reply.statusCode).observe(reply.elapsedTime / 1000);
    done();
  });
  const text = metricsText(registry);
  app.get(
    '/metrics',
    { schema: { hide: true, response: { 200: nonJson('text/plain', 'Prometheus text format'), ...Errors } } },
    async (_request, reply) => {
      return reply.header('content-type', registry.contentType).send(await text());
    },
  );
  return { registry, requests };
}
