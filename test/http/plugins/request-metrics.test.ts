import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestMetrics } from '../../../src/http/plugins/request-metrics.js';

/** prom-client's own Counter and Histogram under the names, labels and buckets of the request metrics. */
function promClientMetrics(registry: Registry) {
  const labelNames = ['route', 'method', 'status'];
  const requests = new Counter({
    name: 'rebound_http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'rebound_http_request_duration_seconds',
    help: 'HTTP request latency by route, method and status',
    labelNames,
    buckets: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return (route: string, method: string, status: number, seconds: number) => {
    const labels = { route, method, status: String(status) };
    requests.inc(labels);
    latency.observe(labels, seconds);
  };
}

// Times on and between the bucket bounds, and past the last one.
const observations: [string, string, number, number][] = [
  ['/api/v1/products/static', 'GET', 200, 0.0004],
  ['/api/v1/products/static', 'GET', 200, 0.001],
  ['/api/v1/products/static', 'GET', 200, 0.0049],
  ['/api/v1/products/static', 'GET', 400, 0.3],
  ['/api/v1/products/trending_products', 'GET', 200, 2.5],
  ['/api/v1/products/trending_products', 'GET', 200, 7],
  ['/api/v1/analytics/event', 'POST', 200, 0.02],
];

function ours(observed = observations) {
  const registry = new Registry();
  const metrics = new RequestMetrics(registry);
  for (const [route, method, status, seconds] of observed) metrics.of(route, method, status).observe(seconds);
  return registry;
}

function theirs(observed = observations) {
  const registry = new Registry();
  const observe = promClientMetrics(registry);
  for (const [route, method, status, seconds] of observed) observe(route, method, status, seconds);
  return registry;
}

describe('RequestMetrics', () => {
  it("exposes the text prom-client's Counter and Histogram give for the same requests", async () => {
    const text = await ours().metrics();
    expect(text).toBe(await theirs().metrics());
    expect(text).toContain(
      'rebound_http_request_duration_seconds_bucket' +
        '{le="0.005",route="/api/v1/products/static",method="GET",status="200"} 3',
    );
  });

  it('carries default labels and sums across registries as prom-client does (a node of workers)', async () => {
    const [first, second] = [observations.slice(0, 4), observations.slice(4)];
    const collect = async (
      make: (o: typeof observations) => Registry,
      worker: string,
      observed: typeof observations,
    ) => {
      const registry = make(observed);
      registry.setDefaultLabels({ worker });
      return registry.getMetricsAsJSON();
    };
    const aggregate = async (make: (o: typeof observations) => Registry) =>
      AggregatorRegistry.aggregate([await collect(make, '1', first), await collect(make, '2', second)]).metrics();
    const text = await aggregate(ours);
    expect(text).toBe(await aggregate(theirs));
    expect(text).toContain(
      'rebound_http_requests_total{route="/api/v1/products/static",method="GET",status="200",worker="1"} 3',
    );
  });

  it('gives one series per route, method and status, whoever asks for it', () => {
    const metrics = new RequestMetrics(new Registry());
    expect(metrics.of('/a', 'GET', 200)).toBe(metrics.of('/a', 'GET', 200));
    expect(metrics.of('/a', 'GET', 200)).not.toBe(metrics.of('/a', 'GET', 404));
  });
});
