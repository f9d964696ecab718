import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HEADER_BYTES } from '../../../src/http/plugins/client-errors.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';

/** Sends raw bytes over a socket and reads the answer until the server closes it (each request says close). */
function raw(port: number, request: string | Buffer): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), head: head.toLowerCase(), body });
    });
  });
}

/** What Node's HTTP parser refuses before any route, over a real socket (docs/api.md, "Error codes"). */
describe("requests Node's parser refuses", () => {
  const [backend] = backends();
  let t: TestApp;
  let port: number;
  let key: string;
  beforeAll(async () => {
    t = await startApp(backend!);
    port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
    key = (await t.createShop('parser')).public;
    await t.admin('PUT', '/admin/v1/shops/parser/products', [productInput(1)]);
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  it('serves a GET of 32,000 bytes (the widget posts only past that)', async () => {
    const path = `/api/v1/products/static?key=${key}&ids=1&utm_content=`;
    const url = path + 'x'.repeat(32_000 - path.length);
    const answer = await raw(port, `GET ${url} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).data.map((p: { id: number }) => p.id)).toEqual([1]);
  });

  it('answers headers past the limit with a 431 in the error shape', async () => {
    const big = 'x'.repeat(MAX_HEADER_BYTES);
    const answer = await raw(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: ${big}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.head).toContain('content-type: application/json');
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/over 48 KB/), code: 'headers_too_large' });
  });

  it('answers what is not HTTP (an unknown method, a control byte in a URL) with a 400 in our shape', async () => {
    for (const request of [
      'FOO /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      Buffer.concat([
        Buffer.from('GET /healthz?x='),
        Buffer.from([0x01]),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      ]),
    ]) {
      const answer = await raw(port, request);
      expect(answer.status).toBe(400);
      expect(answer.head).toContain('x-content-type-options: nosniff');
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'bad_request' });
    }
  });
});
