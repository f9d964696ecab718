import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { limitConnectionsPerClient } from '../../../src/http/plugins/connection-limit.js';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';

/** A raw connection that sends one keep-alive request and resolves with the first response's bytes. */
async function ask(port: number, path = '/'): Promise<{ socket: Socket; answer: string }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const answer = await new Promise<string>((resolve) => {
    let bytes = '';
    socket.on('data', (chunk) => {
      bytes += chunk.toString('latin1');
      if (/\r\n\r\n/.test(bytes)) resolve(bytes);
    });
    socket.on('close', () => resolve(bytes));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: rebound.test\r\nConnection: keep-alive\r\n\r\n`);
  });
  return { socket, answer };
}

const status = (answer: string) => Number(answer.slice(9, 12));

describe('connections a client may hold open', () => {
  const open: Socket[] = [];
  let server: Server | undefined;
  afterEach(async () => {
    for (const socket of open.splice(0)) socket.destroy();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  const serve = async (limit: number, isProxy: (address: string) => boolean) => {
    server = createServer((_req, res) => res.end('ok'));
    limitConnectionsPerClient(server, limit, isProxy);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };
  const held = async (port: number) => {
    const asked = await ask(port);
    open.push(asked.socket);
    return asked.answer;
  };

  it('answers a connection past the bound with a 429 and closes it, and takes one again once one closes', async () => {
    const port = await serve(2, () => false);
    expect(status(await held(port))).toBe(200);
    expect(status(await held(port))).toBe(200);
    const refused = await held(port);
    expect(status(refused)).toBe(429);
    expect(refused).toMatch(/\r\nretry-after: 10\r\n/i);
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'Too many connections from this address: at most 2 open at once.',
      code: 'rate_limited',
    });
    open[0]!.destroy();
    // The server counts the closed socket once its close reaches it: asked until it has.
    let answer = refused;
    for (let tries = 0; tries < 100 && status(answer) === 429; tries++) answer = await held(port);
    expect(status(answer)).toBe(200);
    expect(status(await held(port))).toBe(429);
  });

  it('does not bound a proxy, whose connections carry many clients', async () => {
    const port = await serve(1, (address) => address === '127.0.0.1');
    for (let i = 0; i < 3; i++) expect(status(await held(port))).toBe(200);
  });
});

describe.each(backends().slice(0, 1))('the node bounds a client’s connections, on $name', (backend) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    await backend.cleanup();
  });

  const listening = async (env: Record<string, string>) => {
    t = await startApp(backend, env);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    return (t.app.server.address() as AddressInfo).port;
  };

  it('from REBOUND_CONNECTIONS_PER_CLIENT, and not for the proxies TRUST_PROXY names', async () => {
    const port = await listening({ REBOUND_CONNECTIONS_PER_CLIENT: '1' });
    const first = await ask(port, '/healthz');
    const second = await ask(port, '/healthz');
    for (const { socket } of [first, second]) socket.destroy();
    expect([status(first.answer), status(second.answer)]).toEqual([200, 429]);
    await t!.close();
    t = undefined;
    const behind = await listening({ REBOUND_CONNECTIONS_PER_CLIENT: '1', TRUST_PROXY: 'loopback' });
    const proxied = [await ask(behind, '/healthz'), await ask(behind, '/healthz')];
    for (const { socket } of proxied) socket.destroy();
    expect(proxied.map((p) => status(p.answer))).toEqual([200, 200]);
  });
});
