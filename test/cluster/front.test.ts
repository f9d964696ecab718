import { connect, type Server, type Socket } from 'node:net';
import type { Worker } from 'node:cluster';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startFront } from '../../src/cluster/front.js';

const log = pino({ level: 'silent' });
const opened: Socket[] = [];
let server: Server | null = null;

/** A client connection that sends nothing (yet); resolves once connected. */
function silent(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
    opened.push(socket);
  });
}

const closed = (socket: Socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()));

afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  const open = server;
  server = null;
  if (open) await new Promise((resolve) => open.close(resolve));
});

/** The primary's intake (src/cluster/front.ts): which key a connection is picked by, and what it may cost. */
describe("the primary's connection intake", () => {
  it('picks by the key of the first request head, and hands a connection past the reading bound on at once', {
    timeout: 10_000,
  }, async () => {
    const picked: (string | null)[] = [];
    // No worker in these tests: a picked connection is closed, which the client sees.
    const pick = (key: string | null): Worker | null => {
      picked.push(key);
      return null;
    };
    server = await startFront({ host: '127.0.0.1', port: 0, log, pick, headWaitMs: 600_000, maxReading: 2 });
    {
      const port = (server.address() as { port: number }).port;
      const keyed = await silent(port);
      const keyedClosed = closed(keyed);
      keyed.write('GET /api/v1/products/trending_products?key=rb_pub_abc&limit=3 HTTP/1.1\r\nHost: x\r\n\r\n');
      await keyedClosed;
      expect(picked).toEqual(['rb_pub_abc']);

      // Two silent connections take the two reading places; they wait for a head (10 minutes here).
      const waiting = [await silent(port), await silent(port)];
      let waitingClosed = 0;
      for (const socket of waiting) socket.once('close', () => waitingClosed++);
      // A third is not read: it goes on unread, keyless, without waiting for the others.
      const third = await silent(port);
      await closed(third);
      expect(picked).toEqual(['rb_pub_abc', null]);
      expect(waitingClosed).toBe(0);

      // A place frees when a waiting connection ends: the next one is read again.
      const leaving = closed(waiting[0]!);
      waiting[0]!.end();
      await leaving;
      const fourth = await silent(port);
      const fourthClosed = closed(fourth);
      fourth.write('GET /widget.js HTTP/1.1\r\nX-Api-Key: rb_pub_def\r\n\r\n');
      await fourthClosed;
      expect(picked).toEqual(['rb_pub_abc', null, 'rb_pub_def']);
    }
  });
});
