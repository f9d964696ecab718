import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { workerExecArgv } from '../config/memory.js';
import { openStore } from '../store/open.js';
import { withStartupLock } from '../store/startup-lock.js';
import { METRICS_ANSWER, METRICS_REQUEST, type MetricsAnswer, type MetricsRequest } from './messages.js';

/** A worker that dies sooner than this after its start is not restarted again and again: the node stops. */
const CRASH_LOOP_MS = 10_000;

/**
 * The primary of a node with REBOUND_WORKERS processes (docs/scaling.md, "Every core"). It
 * migrates the database once, then starts the workers on one port: the first alone (it makes
 * the operator token and the demo shop when they are missing), the others once it listens. Each
 * worker is a whole `serve` with its own memory budget; connections are spread over them by the
 * operating system's cluster scheduling. SIGTERM or SIGINT is passed on as SIGTERM: each worker
 * drains and shuts down as a single process would, and the primary exits when all have.
 */
export async function servePrimary(config: Config, log: Logger): Promise<void> {
  // Under the start-up lock, as `rebound migrate` and a single server migrate.
  await withStartupLock(config.databaseUrl, async () => (await openStore(config.databaseUrl)).close());
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  let exitCode = 0;

  cluster.on('message', (worker: Worker, message: MetricsRequest) => {
    if (message?.type !== METRICS_REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: METRICS_ANSWER, id: message.id, text } satisfies MetricsAnswer),
      (error: Error) =>
        worker.send({ type: METRICS_ANSWER, id: message.id, error: error.message } satisfies MetricsAnswer),
    );
  });

  // Memory (docs/scaling.md): the young generation's size follows the budget, fixed at each worker's start.
  cluster.setupPrimary({ execArgv: workerExecArgv(config.memoryBudgetMb, process.execArgv) });

  const started = new Map<number, number>();
  const fork = (): Worker => {
    const worker = cluster.fork();
    started.set(worker.id, Date.now());
    return worker;
  };
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker.id) ?? 0);
    started.delete(worker.id);
    if (code !== 0 && code !== null) exitCode = code;
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    log.error({ worker: worker.id, code, signal, livedMs: lived }, 'worker exited');
    if (lived < CRASH_LOOP_MS) return stop('worker crash');
    fork();
  });

  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ reason }, 'stopping the workers');
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(exitCode || 1);
    for (const worker of workers) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const first = fork();
  await new Promise<void>((resolve, reject) => {
    first.once('listening', () => resolve());
    first.once('exit', (code) => reject(new Error(`the first worker exited with ${code} before listening`)));
  });
  for (let i = 1; i < config.workers; i++) fork();
  log.info({ workers: config.workers, budgetMbEach: config.memoryBudgetMb }, 'node started');
}
