import { Gauge, type Registry } from 'prom-client';
import { graphqlStats } from '../../services/platform/graphql.js';
import { syncStats } from '../../services/platform/sync.js';

/**
 * The platform connection's figures on `/metrics` (docs/operations.md, "Health and metrics"): since
 * the process started.
 */
export function registerPlatformMetrics(registry: Registry): void {
  const gauge = (name: string, help: string, read: () => number, labels: Record<string, () => number> = {}) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      ...(Object.keys(labels).length > 0 ? { labelNames: ['resource'] } : {}),
      collect() {
        if (Object.keys(labels).length === 0) this.set(read());
        for (const [label, value] of Object.entries(labels)) this.set({ resource: label }, value());
      },
    });
  gauge('rebound_platform_syncs_started', 'platform syncs started', () => syncStats.started);
  gauge('rebound_platform_syncs_done', 'platform syncs finished', () => syncStats.done);
  gauge('rebound_platform_syncs_failed', 'platform syncs ended failed', () => syncStats.failed);
  gauge('rebound_platform_imported', 'objects imported from the platform, by resource', () => 0, {
    products: () => syncStats.imported.products,
    collections: () => syncStats.imported.collections,
    customers: () => syncStats.imported.customers,
    orders: () => syncStats.imported.orders,
  });
  gauge('rebound_platform_graphql_calls', 'GraphQL Admin API calls', () => graphqlStats.calls);
  gauge('rebound_platform_graphql_throttled', 'THROTTLED answers retried', () => graphqlStats.throttled);
  gauge('rebound_platform_graphql_retries', '429, 5xx and dropped calls retried', () => graphqlStats.retried);
  gauge('rebound_platform_graphql_refused', 'calls whose token the platform refused', () => graphqlStats.refused);
  gauge(
    'rebound_platform_throttle_wait_seconds',
    'time spent waiting for the cost bucket to refill',
    () => graphqlStats.waitedMs / 1000,
  );
}
