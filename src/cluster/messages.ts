/** What the primary and the worker processes of one node say to each other (docs/scaling.md, "Every core"). */
export const METRICS_REQUEST = 'rebound:metrics-request';
export const METRICS_ANSWER = 'rebound:metrics-answer';

export interface MetricsRequest {
  type: typeof METRICS_REQUEST;
  id: number;
}

export interface MetricsAnswer {
  type: typeof METRICS_ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** A worker that takes its connections from the primary (key routing) is ready for them. */
export const WORKER_READY = 'rebound:worker-ready';
/** A connection handed to a worker, with the bytes the primary read from it to find its key. */
export const CONNECTION = 'rebound:connection';

export interface WorkerReady {
  type: typeof WORKER_READY;
}

export interface HandedConnection {
  type: typeof CONNECTION;
  /** Bytes already read from the socket, as latin1 (one byte a character): the worker reads them first. */
  head: string;
}

/**
 * A change one worker committed, relayed by the primary to the node's other workers: the change
 * bus's carrier between the workers of one node when no Redis joins them (src/cache/change-bus.ts).
 */
export const CHANGE = 'rebound:change';

export interface RelayedChange {
  type: typeof CHANGE;
  message: unknown;
}
