import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess, type Running } from '../../bench/lib/processes.js';
import { backends } from '../helpers/backends.js';
import { openStore } from '../../src/store/open.js';

const TOKEN = 'shutdown-test-operator-token-0123456789';
const CLIENTS = 8;

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * A real server process under event load gets SIGTERM: it must answer the request it had begun
 * (a body still arriving), store every event it acknowledged, and exit 0 within the grace period.
 */
describe.each(backends())('graceful shutdown under load ($name)', (backend) => {
  afterAll(() => backend.cleanup());

  it('answers the request in flight, loses no acknowledged event, exits 0', async () => {
    const url = await backend.url();
    const env = {
      DATABASE_URL: url,
      REBOUND_ADMIN_TOKEN: TOKEN,
      REBOUND_DEMO: 'false',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
    };
    const server: Running = await startProcess(['--import', 'tsx', 'src/cli/main.ts', 'serve'], env, 0, '/readyz');
    const port = Number(new URL(server.url).port);
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      return res.json() as Promise<{ keys: { public: string } }>;
    };
    const { keys } = await admin('POST', '/admin/v1/shops', { handle: 'stopping', name: 'Stopping' });
    await admin('PATCH', '/admin/v1/shops/stopping', { settings: { rate_limit_public_per_minute: 100_000_000 } });
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));

    // The load: clients posting events on keep-alive connections until the signal.
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    let signalled = false;
    const clients = Array.from({ length: CLIENTS }, () => ({ uuid: randomUUID(), acked: 0, answered: 0, refused: 0 }));
    const post = (uuid: string, n: number) =>
      new Promise<number>((resolve) => {
        const path =
          `/api/v1/analytics/event?key=${keys.public}&subject=user` +
          `&verb=viewed&noun=product&shop_product_handle=p-${n % 20}&uuid=${uuid}`;
        const req = request({ host: '127.0.0.1', port, method: 'POST', path, agent }, (res) => {
          res.resume();
          res.on('close', () => resolve(res.complete ? (res.statusCode ?? 0) : 0));
        });
        req.on('error', () => resolve(0));
        req.end();
      });
    const load = Promise.all(
      clients.map(async (c) => {
        for (let n = 0; !signalled; n++) {
          const status = await post(c.uuid, n);
          if (status === 200) c.acked++;
          if (status === 0) c.refused++;
          else c.answered++;
        }
      }),
    );

    // A request the server has begun (its headers are in, its body is not) when the signal comes.
    const body = JSON.stringify({
      subject: 'user',
      verb: 'viewed',
      noun: 'product',
      shop_product_handle: 'slow',
      uuid: clients[0]!.uuid,
    });
    const socket = tcpConnect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => {
      answer += d.toString();
    });
    await until(() => clients.reduce((sum, c) => sum + c.acked, 0) >= 200);
    socket.write(
      `POST /api/v1/analytics/event?key=${keys.public} HTTP/1.1\r\n` +
        'host: 127.0.0.1\r\nx-request-id: slow-in-flight\r\n' +
        `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await until(() => server.output().includes('"reqId":"slow-in-flight"'));
    signalled = true;
    server.child.kill('SIGTERM');
    await until(() => server.output().includes('shutting down'));
    // Not a half-close: Node aborts a request whose client ends its side before the answer.
    socket.write(body.slice(10));
    await load;
    const code = await exited;
    agent.destroy();
    socket.destroy();

    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('"Received"');
    expect(code, server.output().slice(-2000)).toBe(0);
    expect(server.output()).toContain('shut down cleanly');
    // Every acknowledged event is stored, the slow one too.
    const store = await openStore(url);
    try {
      const shop = (await store.listShops()).find((s) => s.handle === 'stopping')!;
      for (const [i, c] of clients.entries()) {
        const stored = await store.listEvents(shop.id, { uuid: c.uuid, limit: 100_000 });
        expect(stored.length).toBeGreaterThanOrEqual(c.acked + (i === 0 ? 1 : 0));
        expect(stored.length).toBeLessThanOrEqual(c.answered + c.refused + (i === 0 ? 1 : 0));
      }
    } finally {
      await store.close();
    }
  }, 240_000);
});
