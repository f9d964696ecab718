import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { CONNECTION, WORKER_READY, type HandedConnection, type WorkerReady } from './messages.js';

/**
 * A worker of a node stops with its primary: when the primary is gone (killed, even with SIGKILL,
 * which it cannot pass on), the IPC channel closes and the worker shuts down as on SIGTERM,
 * instead of holding the port and the database with no one to stop it.
 */
export function stopWithPrimary(): void {
  if (!cluster.isWorker) return;
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

/**
 * How a worker of a node that routes by key serves (src/cluster/front.ts): it takes its
 * connections from the primary instead of listening on the node's port. The server still listens,
 * on a loopback port of its own, so that Node tracks its connections (header and request
 * timeouts) and a graceful stop waits for the requests in flight as it does on a single server.
 */
export async function takeConnectionsFromPrimary(app: FastifyInstance): Promise<void> {
  await app.listen({
    host: '127.0.0.1',
    port: 0,
    exclusive: true,
    // Not "Server listening at" this port: clients reach the node's port, never this one.
    listenTextResolver: (address) => `serving the node's port through its primary (own listener ${address})`,
  });
  const server = app.server as Server & { _connections: number };
  process.on('message', (message: HandedConnection, socket?: Socket) => {
    if (message?.type !== CONNECTION || !socket) return;
    // Counted as net.Server counts what it accepts itself, so close() waits for this connection too.
    (socket as Socket & { _server: Server })._server = server;
    server._connections++;
    // What net.Server does for the sockets it accepts, which http.Server asks for (noDelay): without it an
    // answer written in two parts waits on the client's delayed acknowledgement.
    socket.setNoDelay(true);
    server.emit('connection', socket);
    // The bytes the primary read to find the key come first; the rest the server reads from the socket.
    if (message.head.length > 0) socket.emit('data', Buffer.from(message.head, 'latin1'));
  });
  process.send?.({ type: WORKER_READY } satisfies WorkerReady);
}
