import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { workerEnv, workerExecArgv } from '../config/memory.js';
import { dropPendingHandOffs, startFront } from './front.js';
import {
  CHANGE,
  METRICS_ANSWER,
  METRICS_REQUEST,
  WORKER_READY,
  type MetricsAnswer,
  type MetricsRequest,
  type RelayedChange,
  type WorkerReady,
} from './messages.js';
import { ownerSlot } from './routing.js';
import { StartFailure } from './start-failure.js';

/** A worker that dies sooner than this after its start is not restarted again and again: the node stops. */
const CRASH_LOOP_MS = 10_000;

/**
 * The primary of a node with REBOUND_WORKERS processes (docs/scaling.md, "Every core"). It starts
 * the workers: the first alone (under the start-up lock it migrates the database and makes the
 * operator token and the demo shop when they are missing), the others once it serves. It holds
 * none of the server's modules (no store, no HTTP framework): its memory stays a few tens of MB. Each worker is a
 * whole `serve` with its own memory budget and a slot (0 … n-1) that its replacement takes over.
 * With key routing the primary owns the port and hands each connection to the worker its first
 * request's key hashes to (src/cluster/front.ts); without, the workers share the port and the
 * operating system's cluster scheduling spreads the connections. SIGTERM or SIGINT is passed on
 * as SIGTERM: each worker drains and shuts down as a single process would, and the primary exits
 * when all have.
 */
export async function servePrimary(config: Config, log: Logger): Promise<void> {
  // The metrics client is loaded at the first scrape (a node nobody scrapes never needs it); its
  // registry listens for the workers' answers from its construction, before it asks them.
  let aggregator: Promise<{ clusterMetrics(): Promise<string> }> | null = null;
  const aggregate = () => {
    aggregator ??= import('prom-client').then(({ AggregatorRegistry }) => new AggregatorRegistry());
    return aggregator.then((registry) => registry.clusterMetrics());
  };
  /** A worker's committed change, to every other worker (their change bus when no Redis joins them). */
  const relay = (from: Worker, change: RelayedChange) => {
    for (const worker of Object.values(cluster.workers ?? {}))
      if (worker && worker !== from && worker.isConnected()) worker.send(change, undefined, () => undefined);
  };
  let stopping = false;
  /** The node failed to start: its workers are stopped and the failure is the caller's to report. */
  let failed = false;
  let exitCode = 0;
  let front: Server | null = null;
  /** The worker in each slot, and whether it serves (the routing ring is the serving slots). */
  const slots: { worker: Worker; started: number; serving: boolean }[] = [];
  let live: number[] = [];
  const refreshLive = () => {
    live = slots.flatMap((s, i) => (s.serving ? [i] : []));
  };
  const slotOf = (worker: Worker) => slots.findIndex((s) => s.worker === worker);

  let firstServes: () => void = () => {};
  const serving = (worker: Worker) => {
    const slot = slotOf(worker);
    if (slot < 0) return;
    slots[slot]!.serving = true;
    refreshLive();
    if (slot === 0) firstServes();
  };

  cluster.on('message', (worker: Worker, message: MetricsRequest | WorkerReady | RelayedChange) => {
    if (message?.type === WORKER_READY) return serving(worker);
    if (message?.type === CHANGE) return relay(worker, message);
    if (message?.type !== METRICS_REQUEST) return;
    aggregate().then(
      (text) => worker.send({ type: METRICS_ANSWER, id: message.id, text } satisfies MetricsAnswer),
      (error: Error) =>
        worker.send({ type: METRICS_ANSWER, id: message.id, error: error.message } satisfies MetricsAnswer),
    );
  });

  // Memory (docs/scaling.md): the young generation's size and the allocator's mapping follow the budget,
  // fixed at each worker's start.
  cluster.setupPrimary({ execArgv: workerExecArgv(config.memoryBudgetMb, process.execArgv) });

  const fork = (slot: number): Worker => {
    const worker = cluster.fork(workerEnv(config.memoryBudgetMb));
    slots[slot] = { worker, started: Date.now(), serving: false };
    // Without routing, a worker serves once it listens on the shared port.
    if (!config.keyRouting) worker.once('listening', () => serving(worker));
    return worker;
  };
  cluster.on('exit', (worker, code, signal) => {
    const slot = slotOf(worker);
    const lived = Date.now() - (slots[slot]?.started ?? 0);
    if (slot >= 0) slots[slot]!.serving = false;
    refreshLive();
    if (config.keyRouting) dropPendingHandOffs(worker);
    if (code !== 0 && code !== null) exitCode = code;
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0 && !failed) process.exit(exitCode);
      return;
    }
    // Its shops go to the other workers until the replacement in its slot serves them again.
    log.error({ worker: worker.id, code, signal, livedMs: lived }, 'worker exited');
    if (lived < CRASH_LOOP_MS) return stop('worker crash');
    fork(slot);
  });

  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ reason }, 'stopping the workers');
    front?.close();
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(exitCode || 1);
    for (const worker of workers) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  /** Stops every worker and waits for them: one still starting must not outlive its primary's IPC. */
  const dismissWorkers = async () => {
    failed = stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
    const exited = workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve)));
    for (const worker of workers) worker.process.kill('SIGTERM');
    await Promise.all(exited);
  };

  const first = fork(0);
  await new Promise<void>((resolve, reject) => {
    firstServes = resolve;
    // The worker has said why (the same command line's report); the primary adds only that it stops.
    first.once('exit', (code) => reject(new StartFailure(`the first worker exited with ${code} before serving.`)));
  });
  for (let slot = 1; slot < config.workers; slot++) fork(slot);
  if (config.keyRouting) {
    try {
      front = await listen(config, log, slots, () => live);
    } catch (error) {
      await dismissWorkers();
      throw error;
    }
  }
  log.info(
    { workers: config.workers, budgetMbEach: config.memoryBudgetMb, keyRouting: config.keyRouting },
    'node started',
  );
}

/** The primary's listening socket of a node that routes by key: a key to its slot's worker, no key in turn. */
async function listen(
  config: Config,
  log: Logger,
  slots: readonly { worker: Worker }[],
  live: () => readonly number[],
): Promise<Server> {
  let turn = 0;
  const server = await startFront({
    host: config.host,
    port: config.port,
    log,
    pick: (key) => {
      const serving = live();
      if (serving.length === 0) return null;
      const slot = key === null ? serving[turn++ % serving.length]! : ownerSlot(key, serving)!;
      return slots[slot]!.worker;
    },
  });
  // PORT=0 lets the system choose: whoever started the node needs to learn which port it chose.
  const address = server.address();
  if (config.port === 0 && address && typeof address === 'object') {
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    process.stdout.write(`Listening on http://${host}:${address.port}\n`);
  }
  return server;
}
