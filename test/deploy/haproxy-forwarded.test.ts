import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT } from '../../bench/lib/processes.js';

const free = async (): Promise<number> => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

/**
 * The nodes behind the shipped HAProxy configuration trust one hop for the visitor's address
 * (compose.yaml's TRUST_PROXY=1), which the rate limits count: the proxy must send the address it
 * saw, never one the client wrote. A server recording the headers it gets stands for the nodes.
 */
describe.runIf(inject('haproxy'))('the visitor address and its connections at the shipped HAProxy', () => {
  const seen: IncomingHttpHeaders[] = [];
  let node: Server;
  let proxy: ChildProcess;
  let proxyUrl: string;

  beforeAll(async () => {
    node = createServer((req, res) => {
      if (req.url !== '/readyz') seen.push(req.headers);
      res.end('ok');
    });
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    const nodeAddress = `127.0.0.1:${(node.address() as AddressInfo).port}`;
    const port = await free();
    proxyUrl = `http://127.0.0.1:${port}`;
    proxy = spawn('haproxy', ['-f', join(ROOT, 'deploy', 'haproxy.cfg'), '-db'], {
      env: {
        ...process.env,
        REBOUND_PROXY_BIND: `127.0.0.1:${port}`,
        REBOUND_NODE_1: nodeAddress,
        REBOUND_NODE_2: nodeAddress,
        REBOUND_PROXY_CONNECTIONS_PER_CLIENT: '3',
      },
      stdio: 'ignore',
    });
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if ((await fetch(`${proxyUrl}/readyz`).catch(() => null))?.status === 200) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the proxy did not answer within 20 s');
  }, 30_000);

  afterAll(async () => {
    proxy?.kill('SIGKILL');
    await new Promise((resolve) => node?.close(resolve));
  });

  it('sends the address it saw, whatever X-Forwarded-For the client wrote', async () => {
    for (const path of ['/api/v1/products/trending_products?key=rb_pub_x', '/widget.js'])
      for (const forged of [undefined, '6.6.6.6', '6.6.6.6, 7.7.7.7']) {
        seen.length = 0;
        const res = await fetch(`${proxyUrl}${path}`, { headers: forged ? { 'x-forwarded-for': forged } : {} });
        expect(res.status).toBe(200);
        expect(seen.map((h) => h['x-forwarded-for'])).toEqual(['127.0.0.1']);
      }
  });

  it('closes a connection past the bound of one client address, and only that address', async () => {
    const port = Number(new URL(proxyUrl).port);
    // From 127.0.0.2: the other tests' pooled connections come from 127.0.0.1 and are not counted here.
    const ask = (from: string) =>
      new Promise<{ socket: Socket; answer: string }>((resolve) => {
        const socket = connect({ port, host: '127.0.0.1', localAddress: from });
        let answer = '';
        socket.on('error', () => {});
        socket.on('data', (chunk) => {
          answer += chunk.toString('latin1');
          if (answer.includes('\r\n\r\nok')) resolve({ socket, answer });
        });
        socket.on('close', () => resolve({ socket, answer }));
        socket.write('GET /widget.js HTTP/1.1\r\nHost: rebound.test\r\n\r\n');
      });
    const held = [await ask('127.0.0.2'), await ask('127.0.0.2'), await ask('127.0.0.2')];
    const past = await ask('127.0.0.2');
    const other = await ask('127.0.0.3');
    for (const { socket } of [...held, past, other]) socket.destroy();
    expect(held.map(({ answer }) => answer.slice(0, 12))).toEqual(Array(3).fill('HTTP/1.1 200'));
    expect(past.answer).toBe('');
    expect(other.answer.slice(0, 12)).toBe('HTTP/1.1 200');
  });
});
