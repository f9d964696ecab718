import { createServer, type Server, type Socket } from 'node:net';
import type { Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { CONNECTION, type HandedConnection } from './messages.js';
import { keyOfHead, requestHead } from './routing.js';

/** At most this much of a connection is read to find its key: Node's own limit on a request head. */
const HEAD_BYTES = 16 * 1024;
/**
 * How long the primary waits for a first request head. A browser's preconnected socket often
 * carries its request a moment later; a connection silent longer goes to any worker (which applies
 * HEADERS_TIMEOUT_MS), so a slow or silent client never holds the primary nor a routed shop.
 */
const HEAD_WAIT_MS = 2000;
/**
 * At most this many connections are read at once. Each may hold up to HEAD_BYTES for HEAD_WAIT_MS;
 * past the bound, a new connection goes to any worker unread (as a silent one would), so a flood of
 * idle connections costs the primary a bounded amount of memory and the workers their own limits.
 */
const MAX_READING = 1024;

export interface FrontOptions {
  host: string;
  port: number;
  /** The worker for a key (null: no key in the head, any worker); null when none is serving. */
  pick: (key: string | null) => Worker | null;
  log: Logger;
  /** How long a first request head is waited for (HEAD_WAIT_MS; tests). */
  headWaitMs?: number;
  /** How many connections are read at once (MAX_READING; tests). */
  maxReading?: number;
}

/**
 * The node's listening socket, owned by the primary when it routes by key (docs/scaling.md,
 * "Every core"). Each new connection is read until its first request head is complete, the byte
 * cap is reached or the wait is over; never further (no body is parsed here). The socket and the
 * bytes read so far then go to the chosen worker, which serves the connection from there on: the
 * primary copies no traffic. The hand-off is the one sticky-session modules use (the worker emits
 * 'connection' on its server and replays the bytes; socket.io's @socket.io/sticky, for one).
 */
export function startFront(options: FrontOptions): Promise<Server> {
  const reading = { count: 0, max: options.maxReading ?? MAX_READING };
  const server = createServer((socket) => {
    if (reading.count >= reading.max) return hand(socket, Buffer.alloc(0), options.pick(null), options.log);
    reading.count++;
    intake(socket, options, () => reading.count--);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: options.host, port: options.port }, () => {
      server.off('error', reject);
      server.on('error', (error) => options.log.error({ err: error }, 'listening socket error'));
      resolve(server);
    });
  });
}

function intake(socket: Socket, { pick, log, headWaitMs = HEAD_WAIT_MS }: FrontOptions, done: () => void): void {
  const chunks: Buffer[] = [];
  let length = 0;
  let settled = false;
  const settle = () => {
    clearTimeout(timer);
    if (!settled) done();
    settled = true;
  };
  const finish = (key: string | null) => {
    settle();
    socket.off('data', onData);
    socket.off('end', drop);
    // The error listener stays: a socket waits here while Node's IPC queues it behind an earlier hand-off.
    // No more bytes may be read into this process once it is decided: they would be lost with the handle.
    socket.pause();
    (socket as unknown as { _handle?: { readStop?: () => void } })._handle?.readStop?.();
    hand(socket, Buffer.concat(chunks, length), pick(key), log);
  };
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    length += chunk.length;
    // Not an HTTP/1 request (a method is capital letters): no key to look for, no reason to wait.
    const first = chunks[0]![0]!;
    if (first < 0x41 || first > 0x5a) return finish(null);
    const bytes = chunks.length === 1 ? chunk : Buffer.concat(chunks, length);
    const head = requestHead(bytes);
    if (head !== null) return finish(keyOfHead(head));
    if (length >= HEAD_BYTES) finish(null);
  };
  const drop = () => {
    settle();
    socket.destroy();
  };
  const timer = setTimeout(() => finish(null), headWaitMs);
  socket.on('data', onData);
  socket.once('end', drop);
  socket.on('error', drop);
}

function hand(socket: Socket, head: Buffer, worker: Worker | null, log: Logger): void {
  if (!worker) {
    socket.destroy();
    return;
  }
  const message: HandedConnection = { type: CONNECTION, head: head.toString('latin1') };
  worker.send(message, socket, { keepOpen: false }, (error: Error | null) => {
    if (!error) return;
    // The worker went away meanwhile: the client sees a closed connection, as when a worker dies mid-request.
    log.warn({ err: error, worker: worker.id }, 'could not hand a connection to its worker');
    socket.destroy();
  });
}

/**
 * Closes the connections a worker that died was still being handed. Node's IPC keeps a sent
 * handle until the receiver acknowledges it and queues the next ones meanwhile; a receiver that
 * died never acknowledges, and Node neither closes those handles nor reports them, so their
 * clients would wait forever. Closed, they see the connection end and ask again (to a survivor).
 */
export function dropPendingHandOffs(worker: Worker): void {
  const channel = worker.process as unknown as {
    _pendingMessage?: { handle?: { close?: () => void } } | null;
    _handleQueue?: { handle?: { destroy?: () => void } | null }[] | null;
  };
  channel._pendingMessage?.handle?.close?.();
  channel._pendingMessage = null;
  for (const queued of channel._handleQueue ?? []) queued.handle?.destroy?.();
  channel._handleQueue = null;
}
