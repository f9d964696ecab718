import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { METRICS_ANSWER, METRICS_REQUEST, type MetricsAnswer, type MetricsRequest } from '../../cluster/messages.js';

/** How long a worker waits for the node's other workers' metrics before answering with its own. */
const AGGREGATE_TIMEOUT_MS = 5_000;

/**
 * The text of `/metrics`. A single process answers with its own registry. In a worker of a
 * node with several (REBOUND_WORKERS), every series carries a `worker` label and the answer is
 * the primary's collection of every worker's registry, so one scrape sees the whole node.
 */
export function metricsText(registry: Registry): () => Promise<string> {
  const worker = cluster.isWorker ? cluster.worker : undefined;
  if (!worker || !process.send) return () => registry.metrics();
  registry.setDefaultLabels({ worker: String(worker.id) });
  // prom-client answers the primary's collection from the registries named here, once an
  // AggregatorRegistry exists in this process (its constructor adds the listener).
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  let next = 0;
  const waiting = new Map<number, (answer: MetricsAnswer) => void>();
  process.on('message', (message: MetricsAnswer) => {
    if (message?.type === METRICS_ANSWER) waiting.get(message.id)?.(message);
  });
  return () =>
    new Promise<string>((resolve) => {
      const id = ++next;
      const timer = setTimeout(() => settle({ type: METRICS_ANSWER, id, error: 'timeout' }), AGGREGATE_TIMEOUT_MS);
      function settle(answer: MetricsAnswer) {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(answer.text ?? registry.metrics());
      }
      waiting.set(id, settle);
      process.send!({ type: METRICS_REQUEST, id } satisfies MetricsRequest);
    });
}
