import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { startApp, type TestApp } from '../helpers/app.js';

/** Behind a load balancer and against slow senders (docs/operations.md, "Behind a proxy", "Process limits"). */
describe('client addresses behind a proxy, and connection timeouts', () => {
  const [backend] = backends();
  let direct: TestApp;
  let proxied: TestApp;
  let keys: { direct: string; proxied: string };
  beforeAll(async () => {
    direct = await startApp(backend!);
    proxied = await startApp(backend!, {
      TRUST_PROXY: '10.0.0.0/8',
      HEADERS_TIMEOUT_MS: '500',
      REQUEST_TIMEOUT_MS: '1000',
    });
    keys = {
      direct: (await direct.createShop('direct')).public,
      proxied: (await proxied.createShop('proxied')).public,
    };
    for (const [t, handle] of [
      [direct, 'direct'],
      [proxied, 'proxied'],
    ] as const) {
      await t.admin('PATCH', `/admin/v1/shops/${handle}`, { settings: { rate_limit_public_per_minute: 2 } });
    }
  });
  afterAll(async () => {
    await direct.close();
    await proxied.close();
    await backend!.cleanup();
  });

  const hit = (t: TestApp, key: string, remoteAddress: string, forwardedFor: string) =>
    t.app.inject({
      url: `/api/v1/products/trending_products?key=${key}`,
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('gives each visitor behind a trusted proxy their own rate-limit bucket', async () => {
    const statuses = [];
    for (const visitor of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      statuses.push(
        (await hit(proxied, keys.proxied, '10.0.0.5', visitor)).statusCode,
        (await hit(proxied, keys.proxied, '10.0.0.5', visitor)).statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect((await hit(proxied, keys.proxied, '10.0.0.5', '198.51.100.1')).statusCode).toBe(429);
  });

  it('ignores X-Forwarded-For from a client that is not a trusted proxy, and by default', async () => {
    // An untrusted sender cannot pick a fresh bucket per request by forging the header.
    const forged = [];
    for (let i = 0; i < 3; i++)
      forged.push((await hit(proxied, keys.proxied, '203.0.113.9', `192.0.2.${i}`)).statusCode);
    expect(forged).toEqual([200, 200, 429]);
    const unset = [];
    for (let i = 0; i < 3; i++) unset.push((await hit(direct, keys.direct, '10.0.0.5', `192.0.2.${i}`)).statusCode);
    expect(unset).toEqual([200, 200, 429]);
  });

  it('closes a connection whose headers arrive too slowly', async () => {
    const address = await proxied.app.listen({ port: 0, host: '127.0.0.1' });
    expect(proxied.app.server.headersTimeout).toBe(500);
    expect(proxied.app.server.requestTimeout).toBe(1000);
    const { port } = new URL(address);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString();
      });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      // The request line and one header, then nothing: the server must not wait for the rest forever.
      socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
