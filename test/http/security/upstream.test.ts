import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { TEST_SECRET_KEY, seedBilling, seedFakeProvider, switchToRemoteProvider } from '../../helpers/billing.js';
import { FakeBillingProvider } from '../../helpers/fake-billing-provider.js';
import { SSRF_URLS } from '../../helpers/hostile-values.js';

const SECRET_TEXT = 'upstream-text-that-must-never-be-quoted';
/** Resolves `*.rebound.test` to loopback (as a hostile or rebinding resolver would), `flip` decides for `later.*`. */
function testResolver(state: { later: string }): LookupFunction {
  return (host, options, callback) => {
    const address = host.startsWith('later.') ? state.later : '127.0.0.1';
    const entry = { address, family: address.includes(':') ? 6 : 4 };
    if (options.all) (callback as unknown as (e: null, a: (typeof entry)[]) => void)(null, [entry]);
    else callback(null, entry.address, entry.family);
  };
}

/**
 * Ports this file's servers have listened on. An origin that broke the byte cap rests for 30 s (its
 * calls refused unsent), and the system may give a stopped server's port to the next one: a later
 * test would then meet the earlier server's rest.
 */
const portsHeld = new Set<number>();

/** A local server whose every answer is `respond`'s, on a port no earlier one here had; records what reached it. */
async function hostileServer(respond: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: { path: string; token: string | undefined }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', token: req.headers['x-recharge-access-token'] as string | undefined });
    res.on('error', () => undefined);
    respond(req, res);
  });
  let port: number;
  for (;;) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    if (!portsHeld.has(port)) break;
    await new Promise((resolve) => server.close(resolve));
  }
  portsHeld.add(port);
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Writes `megabytes` of JSON-looking bytes as fast as the socket takes them. */
function flood(res: ServerResponse, megabytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  let left = megabytes;
  const pump = () => {
    while (left-- > 0) if (!res.write(chunk)) return void res.once('drain', pump);
    res.end();
  };
  pump();
}

describe('upstream calls cannot be turned against the platform (over real HTTP)', () => {
  const [backend] = backends();
  let t: TestApp;
  let base: string;
  let key: string;
  let fake: FakeBillingProvider;
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  const reactivation = () =>
    fetch(`${base}/api/v1/billing/reactivate?key=${key}&billing_customer_id=100&request_type=live`);

  beforeAll(async () => {
    fake = seedFakeProvider(await new FakeBillingProvider().start());
    t = await startApp(backend!, {
      REBOUND_SECRET_KEY: TEST_SECRET_KEY,
      REBOUND_ALLOW_PRIVATE_UPSTREAMS: 'true',
      REBOUND_BILLING_TIMEOUT_MS: '800',
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    key = (await seedBilling(t, 'victim')).private;
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
    await backend!.cleanup();
  });

  it(
    'never sends a stored token to another origin: moving base_url ' + 'without api_token is a 422 naming api_token',
    async () => {
      await switchToRemoteProvider(t, 'victim', fake);
      const attacker = await hostileServer((_req, res) => res.end('{}'));
      const moved = await admin('PUT', '/admin/v1/shops/victim/billing/provider', {
        type: 'remote',
        base_url: attacker.url,
      });
      expect(moved.status).toBe(422);
      expect(((await moved.json()) as { field: string }).field).toBe('api_token');
      expect((await reactivation()).status).toBe(200);
      expect(attacker.seen).toEqual([]);
      // With a token of its own the move is allowed, and only that token travels there.
      expect(
        (
          await admin('PUT', '/admin/v1/shops/victim/billing/provider', {
            type: 'remote',
            base_url: attacker.url,
            api_token: 'their-own',
          })
        ).status,
      ).toBe(200);
      await reactivation();
      expect(attacker.seen.map((s) => s.token)).toEqual(expect.arrayContaining(['their-own']));
      expect(attacker.seen.every((s) => s.token === 'their-own')).toBe(true);
      await attacker.stop();
    },
  );

  it('ends a 60 MB answer at the 2 MB cap as a 502, without retrying', async () => {
    const hostile = await hostileServer((_req, res) => flood(res, 60));
    expect(
      (
        await admin('PUT', '/admin/v1/shops/victim/billing/provider', {
          type: 'remote',
          base_url: hostile.url,
          api_token: 'x',
        })
      ).status,
    ).toBe(200);
    const res = await reactivation();
    expect(res.status).toBe(502);
    expect(hostile.seen).toHaveLength(1);
    // The shop's provider rests: the next calls are 502s at once, and cost no more reads.
    const again = await reactivation();
    expect(again.status).toBe(502);
    expect(JSON.stringify(await again.json())).toContain('resume');
    expect(hostile.seen).toHaveLength(1);
    await hostile.stop();
  });

  it('ends an answer that never finishes at the one deadline as a 502', async () => {
    const hostile = await hostileServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"customer": {"id": 100,');
    });
    expect(
      (
        await admin('PUT', '/admin/v1/shops/victim/billing/provider', {
          type: 'remote',
          base_url: hostile.url,
          api_token: 'x',
        })
      ).status,
    ).toBe(200);
    const res = await reactivation();
    expect(res.status).toBe(502);
    expect(hostile.seen).toHaveLength(1);
    await hostile.stop();
  });

  it("never quotes the provider's answer: a refusal names its status only", async () => {
    const hostile = await hostileServer((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: SECRET_TEXT, error: SECRET_TEXT }));
    });
    expect(
      (
        await admin('PUT', '/admin/v1/shops/victim/billing/provider', {
          type: 'remote',
          base_url: hostile.url,
          api_token: 'x',
        })
      ).status,
    ).toBe(200);
    const res = await reactivation();
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(text).toContain('422');
    expect(text).not.toContain(SECRET_TEXT);
    await hostile.stop();
  });
});

describe('upstream addresses (production rules, over real HTTP)', () => {
  const [backend] = backends();
  let t: TestApp;
  let base: string;
  let key: string;
  const resolver = { later: '93.184.216.34' };
  const put = (body: unknown) =>
    fetch(`${base}/admin/v1/shops/prod/billing/provider`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    t = await startApp(backend!, { REBOUND_SECRET_KEY: TEST_SECRET_KEY }, { upstreamLookup: testResolver(resolver) });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    key = (await seedBilling(t, 'prod')).private;
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  it.each(SSRF_URLS)('refuses base_url %s when saved, naming the field', async (url) => {
    const res = await put({ type: 'remote', base_url: url, api_token: 'x' });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { field: string }).field).toBe('base_url');
  });

  it(
    'checks the resolved address of every connection: a name that ' + 'turns to loopback is never connected to',
    async () => {
      let connections = 0;
      const listener = createTcpServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      const port = (listener.address() as AddressInfo).port;
      expect(
        (await put({ type: 'remote', base_url: `https://later.rebound.test:${port}`, api_token: 'x' })).status,
      ).toBe(200);
      resolver.later = '127.0.0.1';
      const res = await fetch(`${base}/api/v1/billing/reactivate?key=${key}&billing_customer_id=100&request_type=live`);
      expect(res.status).toBe(502);
      expect(connections).toBe(0);
      await new Promise((resolve) => listener.close(resolve));
    },
  );
});
