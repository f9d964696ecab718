import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Services } from './compose.js';

export interface ShutdownDeps {
  app: FastifyInstance;
  services: Pick<Services, 'close'>;
  log: Logger;
  /** REBOUND_SHUTDOWN_GRACE_MS: after this long the process exits anyway, with code 1. */
  graceMs: number;
  exit?: (code: number) => void;
}

/**
 * The graceful stop of one server process, in order: stop accepting connections and answer the
 * requests in flight (Fastify's close; new requests on open keep-alive connections get a 503 that
 * closes them, so a load balancer moves on), then the services' close (background loops, syncs and
 * model builds stop; buffered events are written; Redis and the database pools close). Everything
 * acknowledged was already committed before its answer; the buffers hold only unacknowledged work.
 * Returns the function to call on a signal; calling it again while stopping does nothing.
 */
export function gracefulShutdown({ app, services, log, graceMs, exit = (code) => process.exit(code) }: ShutdownDeps) {
  let stopping: Promise<void> | null = null;
  // Answers in flight when the stop begins end their connections (`Connection: close`): a keep-alive
  // connection left open after its last answer would hold the stop until the client let go. The
  // connections are followed, not the requests: a listener per request cost every answer its share.
  const connections = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  const closeIdleSoon = () => setImmediate(() => app.server.closeIdleConnections());
  const endConnections = () => {
    app.server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
      response.shouldKeepAlive = false;
      response.once('close', closeIdleSoon);
    });
    for (const socket of connections) {
      // The answer the connection is writing now (Node's own field; none between requests).
      const response = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
      if (!response) continue;
      if (!response.headersSent) response.shouldKeepAlive = false;
      response.once('close', closeIdleSoon);
    }
  };
  return (signal: string): Promise<void> => {
    if (stopping) return stopping;
    endConnections();
    log.info({ signal, graceMs }, 'shutting down: no new connections, answering the requests in flight');
    const force = setTimeout(() => {
      log.error({ graceMs }, 'shutdown took longer than REBOUND_SHUTDOWN_GRACE_MS: exiting with work unfinished');
      exit(1);
    }, graceMs);
    force.unref();
    stopping = app
      .close()
      .then(() => services.close())
      .then(
        () => {
          clearTimeout(force);
          log.info('shut down cleanly');
          exit(0);
        },
        (error: unknown) => {
          clearTimeout(force);
          log.error({ err: error }, 'shutdown failed');
          exit(1);
        },
      );
    return stopping;
  };
}

/** Wires SIGTERM and SIGINT of this process to a graceful shutdown. */
export function stopOnSignals(shutdown: (signal: string) => Promise<void>): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(signal));
}
