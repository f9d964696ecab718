import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
describe.runIf(inject('haproxy'))('the visitor address behind the shipped HAProxy configuration', () => {
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
});
