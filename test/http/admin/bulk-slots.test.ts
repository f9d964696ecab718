import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkSlotsFor } from '../../../src/http/plugins/bulk-slots.js';
import { ADMIN_TOKEN, startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';

/**
 * Bulk imports read at once are bounded per shop and per process, before their bodies are read
 * (docs/operations.md, "Process limits"): a body still arriving holds its slot.
 */
describe('bulk imports at once', () => {
  const [backend] = backends();
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    // 256 MB and 32 MB bodies: two slots for the process.
    t = await startApp(backend!, { REBOUND_MEMORY_BUDGET_MB: '256', REBOUND_MAX_BODY_MB: '32' });
    await t.createShop('first');
    await t.createShop('second');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  });
  afterAll(async () => {
    await t.close();
    await backend!.cleanup();
  });

  const body = JSON.stringify([productInput(1)]);
  /**
   * An import whose body has begun to arrive and stops there, until `finish` or `abort`. It asks for
   * `100 Continue`, which the server sends as it takes the request: once that is read, the request's
   * hooks have run (they take no I/O here) and it holds its slot or was refused.
   */
  const slowImport = async (handle: string) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let text = '';
    const answer = new Promise<string>((resolve) => {
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    const continued = new Promise<void>((resolve) =>
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if (text.startsWith('HTTP/1.1 100')) resolve();
      }),
    );
    socket.write(
      `PUT /admin/v1/shops/${handle}/products HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        'Expect: 100-continue\r\nConnection: close\r\n\r\n',
    );
    await continued;
    await new Promise((resolve) => setImmediate(resolve));
    socket.write(body.slice(0, 10));
    return { finish: () => socket.write(body.slice(10)), abort: () => socket.destroy(), answer };
  };
  const importNow = (handle: string) => t.admin('PUT', `/admin/v1/shops/${handle}/products`, [productInput(2)]);
  /** Waits for the server to reach a state (the slow bodies' headers read), never for a fixed time. */
  const until = async (status: number, handle: string) => {
    for (;;) {
      const res = await importNow(handle);
      if (res.statusCode === status) return res;
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('answers 429 with Retry-After past two of a shop, and past the process slots, until one ends', {
    timeout: 8000,
  }, async () => {
    expect(bulkSlotsFor(256, 32)).toBe(2);
    const first = await slowImport('first');
    const second = await slowImport('first');
    const refused = await importNow('first');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(refused.json().error).toMatch(/2 bulk imports of this shop/);
    // The process's two slots are taken too: another shop waits.
    const other = await importNow('second');
    expect(other.statusCode).toBe(429);
    expect(other.json().error).toMatch(/as many bulk imports as it can hold/);
    // A sender gone gives its slot back; a body finished gets its answer and gives back its own.
    first.abort();
    expect((await until(200, 'second')).json()).toMatchObject({ upserted: 1 });
    second.finish();
    expect(await second.answer).toMatch(/^HTTP\/1.1 100 Continue\r\n\r\nHTTP\/1.1 200/);
    expect((await importNow('first')).statusCode).toBe(200);
  });
});
