import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../../config/server.js';
import { errorBody } from '../../domain/errors.js';

/** How long a client refused for holding too many connections is asked to wait. */
const RETRY_AFTER_SECONDS = 10;

/**
 * Which peers are proxies: their connections carry many clients, so no per-client bound applies to them.
 * Every peer when the node trusts every hop or a hop count (it is behind a proxy, which bounds its clients:
 * deploy/haproxy.cfg); the listed ones when it trusts addresses; none when it trusts no proxy.
 */
export function proxyPeers(setting: TrustProxy): (address: string) => boolean {
  if (setting === false) return () => false;
  if (setting === true || typeof setting === 'number') return () => true;
  const trusted = proxyAddr.compile(setting);
  return (address) => trusted(address, 0);
}

/**
 * Bounds the connections one client address holds open in this process (REBOUND_CONNECTIONS_PER_CLIENT).
 * A browser opens six to a host; without a bound, one client opening idle sockets faster than the
 * headers timeout closes them takes every file descriptor the process has, and every shop with it. A
 * connection past the bound is answered 429 at once and closed, before Node's HTTP parser sees it.
 * Wraps the server's own 'connection' listener, so the sockets the cluster's primary hands over (emitted
 * as 'connection' by the worker) are counted as those accepted here.
 */
export function limitConnectionsPerClient(server: Server, limit: number, isProxy: (address: string) => boolean): void {
  if (limit <= 0) return;
  const open = new Map<string, number>();
  const refusal = refusalBytes(limit);
  const serveHttp = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address !== undefined && !isProxy(address)) {
      const held = open.get(address) ?? 0;
      if (held >= limit) {
        socket.on('error', () => {});
        socket.end(refusal, () => socket.destroy());
        return;
      }
      open.set(address, held + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
    }
    for (const listener of serveHttp) listener.call(server, socket);
  });
}

function refusalBytes(limit: number): Buffer {
  const body = JSON.stringify(
    errorBody('rate_limited', `Too many connections from this address: at most ${limit} open at once.`),
  );
  return Buffer.from(
    'HTTP/1.1 429 Too Many Requests\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      `Retry-After: ${RETRY_AFTER_SECONDS}\r\n` +
      'Connection: close\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
