import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT, startProcess, type Running } from '../../bench/lib/processes.js';
import { productInput } from '../helpers/fixtures.js';

const TOKEN = 'proxy-test-operator-token-0123456789';
const SHOPS = 16;

interface Answer {
  status: number;
  body: string;
}

/**
 * Two server processes behind HAProxy running deploy/haproxy.cfg as shipped (addresses from the
 * environment; the proxy listens on a socket file, so no port is taken). Each shop's storefront
 * traffic must reach one node only, the same whether the key comes in the query or the header,
 * and a node's shops must move to the other node when it goes down.
 */
describe.runIf(inject('haproxy'))('two nodes behind the shipped HAProxy configuration', () => {
  const work = mkdtempSync(join(tmpdir(), 'rebound-proxy-'));
  const socket = join(work, 'proxy.sock');
  const nodes: Running[] = [];
  let proxy: ChildProcess;
  let proxyOutput = '';

  const viaProxy = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    new Promise<Answer>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        {
          socketPath: socket,
          method,
          path,
          headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const admin = (method: string, path: string, body?: unknown) =>
    viaProxy(method, path, { authorization: `Bearer ${TOKEN}` }, body);
  const residentOn = async (node: Running): Promise<string[]> => {
    const res = await fetch(`${node.url}/admin/v1/node/residency`, { headers: { authorization: `Bearer ${TOKEN}` } });
    return ((await res.json()) as { shops: { handle: string }[] }).shops.map((s) => s.handle).sort();
  };
  /** Polls until `check` holds (the proxy's health checks run every second). */
  const eventually = async (check: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (await check().catch(() => false)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${what} did not happen within 20 s\n${proxyOutput}`);
  };

  beforeAll(async () => {
    const env = {
      DATABASE_URL: `sqlite:${join(work, 'shared.db')}`,
      REBOUND_ADMIN_TOKEN: TOKEN,
      REBOUND_DEMO: 'false',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      REBOUND_INDEX_REFRESH_MS: '200',
    };
    const args = ['--import', 'tsx', 'src/cli/main.ts', 'serve'];
    nodes.push(await startProcess(args, env, 0, '/readyz'));
    nodes.push(await startProcess(args, env, 0, '/readyz'));
    proxy = spawn('haproxy', ['-f', join(ROOT, 'deploy', 'haproxy.cfg'), '-db'], {
      env: {
        ...process.env,
        REBOUND_PROXY_BIND: `unix@${socket}`,
        REBOUND_NODE_1: new URL(nodes[0]!.url).host,
        REBOUND_NODE_2: new URL(nodes[1]!.url).host,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [proxy.stdout!, proxy.stderr!])
      stream.on('data', (d: Buffer) => {
        proxyOutput += d.toString();
      });
    await eventually(async () => (await viaProxy('GET', '/readyz')).status === 200, 'the proxy answering');
  }, 180_000);

  afterAll(async () => {
    proxy?.kill('SIGKILL');
    await Promise.all(nodes.map((n) => n.stop()));
    rmSync(work, { recursive: true, force: true });
  });

  it("sends each shop to one node, by key in the query or the header, and moves a down node's shops", async () => {
    const keys = new Map<string, string>();
    for (let i = 1; i <= SHOPS; i++) {
      const handle = `shop-${i}`;
      const created = await admin('POST', '/admin/v1/shops', { handle, name: handle });
      expect(created.status).toBe(201);
      keys.set(handle, (JSON.parse(created.body) as { keys: { public: string } }).keys.public);
      expect(
        (await admin('PUT', `/admin/v1/shops/${handle}/products`, [productInput(1), productInput(2)])).status,
      ).toBe(200);
    }
    // Imports do not load a shop on the node that took them.
    expect([...(await residentOn(nodes[0]!)), ...(await residentOn(nodes[1]!))]).toEqual([]);

    for (const [handle, key] of keys) {
      // A key made on one node reaches the other on its next index refresh or bus message: a 401 until then.
      let byQuery = await viaProxy('GET', `/api/v1/products/static?key=${key}&ids=1,2`);
      for (let i = 0; i < 100 && byQuery.status === 401; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        byQuery = await viaProxy('GET', `/api/v1/products/static?key=${key}&ids=1,2`);
      }
      expect(byQuery.status, handle).toBe(200);
      expect((JSON.parse(byQuery.body) as { data: unknown[] }).data).toHaveLength(2);
      expect((await viaProxy('GET', '/api/v1/products/trending_products', { 'x-api-key': key })).status, handle).toBe(
        200,
      );
    }
    const [onFirst, onSecond] = [await residentOn(nodes[0]!), await residentOn(nodes[1]!)];
    expect([...onFirst, ...onSecond].sort()).toEqual([...keys.keys()].sort()); // each shop on exactly one node
    expect(onFirst.length).toBeGreaterThan(0);
    expect(onSecond.length).toBeGreaterThan(0);

    // The first node goes away: its shops are answered by the second, which now holds every shop.
    await nodes[0]!.stop();
    for (const handle of onFirst) {
      await eventually(
        async () => (await viaProxy('GET', `/api/v1/products/static?key=${keys.get(handle)}&ids=1`)).status === 200,
        `${handle} answered by the other node`,
      );
    }
    expect(await residentOn(nodes[1]!)).toEqual([...keys.keys()].sort());
    // Metrics are scraped from each node, never through the public port.
    expect((await viaProxy('GET', '/metrics')).status).toBe(404);
    expect((await fetch(`${nodes[1]!.url}/metrics`)).status).toBe(200);
  }, 120_000);
});
