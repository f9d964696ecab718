import type { Metric, Registry } from 'prom-client';

/** Latency buckets of the request histogram, in seconds. */
const BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

type Labels = { route: string; method: string; status: string };

/** One route, method and status: its count, total time and bucket counts, counted into directly. */
export class RequestSeries {
  count = 0;
  sum = 0;
  /** Requests per bucket (not cumulative); the last slot holds those above every bound. */
  readonly buckets = new Float64Array(BUCKETS.length + 1);

  constructor(readonly labels: Labels) {}

  observe(seconds: number): void {
    this.count++;
    this.sum += seconds;
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    this.buckets[i]!++;
  }
}

/** A value as prom-client's registry formats and aggregates it. */
interface Value {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * The request count and latency histogram (`rebound_http_requests_total`,
 * `rebound_http_request_duration_seconds`), exposed exactly as prom-client's Counter and Histogram
 * expose them, but counted with no lookup: a request adds to its series, which its caller keeps.
 * prom-client's own `labels(...).observe` hashes the label values and converts each bucket bound to
 * a property name on every call, on a path (a cached answer) where every microsecond shows.
 */
export class RequestMetrics {
  private readonly series = new Map<string, RequestSeries>();

  constructor(registry: Registry) {
    registry.registerMetric(
      this.metric('rebound_http_requests_total', 'counter', 'HTTP requests by route, method and status', (s) => [
        { labels: { ...s.labels }, value: s.count },
      ]),
    );
    registry.registerMetric(
      this.metric(
        'rebound_http_request_duration_seconds',
        'histogram',
        'HTTP request latency by route, method and status',
        histogramValues,
      ),
    );
  }

  /** The series of a route, method and status, made on first use: keep it to count into it. */
  of(route: string, method: string, status: number): RequestSeries {
    const id = `${route}\u0000${method}\u0000${status}`;
    let found = this.series.get(id);
    if (found === undefined) {
      found = new RequestSeries({ route, method, status: String(status) });
      this.series.set(id, found);
    }
    return found;
  }

  /** A metric object as the registry reads it (name, help, type, and its values when collected). */
  private metric(name: string, type: 'counter' | 'histogram', help: string, values: (s: RequestSeries) => Value[]) {
    const read = () => ({ name, help, type, aggregator: 'sum', values: [...this.series.values()].flatMap(values) });
    // prom-client reads `get()` for JSON (the cluster's collection) and for text: the shape its own metrics return.
    return { name, help, type, aggregator: 'sum', get: async () => read() } as unknown as Metric;
  }
}

/** The histogram's values as prom-client gives them: cumulative buckets with `le` first, then sum and count. */
function histogramValues(series: RequestSeries): Value[] {
  const name = 'rebound_http_request_duration_seconds';
  const values: Value[] = [];
  let total = 0;
  for (let i = 0; i < BUCKETS.length; i++) {
    total += series.buckets[i]!;
    values.push({ labels: { le: BUCKETS[i]!, ...series.labels }, value: total, metricName: `${name}_bucket` });
  }
  values.push(
    { labels: { le: '+Inf', ...series.labels }, value: series.count, metricName: `${name}_bucket` },
    { labels: { ...series.labels }, value: series.sum, metricName: `${name}_sum` },
    { labels: { ...series.labels }, value: series.count, metricName: `${name}_count` },
  );
  return values;
}
