import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, upstreamUrlProblem } from '../../../src/services/upstream/address.js';
import { createUpstreamClient } from '../../../src/services/upstream/client.js';
import { UpstreamError } from '../../../src/services/upstream/errors.js';
import { RestingLanes } from '../../../src/services/upstream/resting.js';

const REFUSED_URLS = [
  'https://127.0.0.1',
  'https://127.1',
  'https://0x7f000001',
  'https://2130706433',
  'https://0177.0.0.1',
  'https://[::1]',
  'https://[::ffff:127.0.0.1]',
  'https://[::ffff:7f00:1]',
  'https://[64:ff9b::7f00:1]',
  'https://[2002:7f00:1::]',
  'https://[::ffff:0:7f00:1]', // IPv4-translated
  'https://[::ffff:0:a9fe:a9fe]',
  'https://[64:ff9b:1::7f00:1]', // NAT64 for local use
  'https://[64:ff9b:1:ffff::808:808]',
  'https://[100::1]', // discard-only
  'https://10.1.2.3',
  'https://172.16.0.1',
  'https://192.168.1.1',
  'https://169.254.169.254',
  'https://[fe80::1]',
  'https://[fd00::1]',
  'https://0.0.0.0',
  'https://[::]',
  'https://224.0.0.1',
  'https://[ff02::1]',
  'https://localhost',
  'https://api.localhost',
  'https://metadata',
  'http://api.example.com',
  'https://user:pw@api.example.com',
  'https://api.example.com/?x=1',
];

describe('upstream address rules', () => {
  it.each(REFUSED_URLS)('refuses %s', (url) => {
    expect(upstreamUrlProblem(url, false)).not.toBeNull();
  });

  it('accepts a public https URL, and private ones only when allowed', () => {
    expect(upstreamUrlProblem('https://api.rechargeapps.com', false)).toBeNull();
    expect(upstreamUrlProblem('https://93.184.216.34/v1', false)).toBeNull();
    expect(upstreamUrlProblem('http://127.0.0.1:8080', true)).toBeNull();
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('::ffff:0:808:808')).toBe(true);
    expect(isPublicAddress('64:ff9b::808:808')).toBe(true);
  });
});

/** A host name of the test's own that resolves to loopback, as a rebinding resolver would answer. */
const toLoopback: LookupFunction = (_host, options, callback) => {
  const entry = { address: '127.0.0.1', family: 4 };
  if (options.all) (callback as unknown as (e: null, a: (typeof entry)[]) => void)(null, [entry]);
  else callback(null, entry.address, entry.family);
};

describe('upstream client', () => {
  let server: Server;
  let base = '';
  let hugeCalls = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/huge') {
        hugeCalls++;
        // 60 MB, written as fast as the socket takes it.
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 'a');
        let left = 60;
        const pump = () => {
          while (left > 0) {
            left--;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        pump();
      } else if (req.url === '/never') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"customers": [');
      } else if (req.url === '/lines') {
        res.end('{"a":1}\r\n\n{"b":"é"}\n{"c":3}');
      } else if (req.url === '/long-line') {
        res.end(`{"a":1}\n${'x'.repeat(5000)}\n`);
      } else res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('ends a 60 MB answer at the cap', async () => {
    const client = createUpstreamClient({ allowPrivate: true });
    const failure = await client.call({ url: `${base}/huge`, deadlineMs: 30_000 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect((failure as UpstreamError).reason).toBe('too_large');
    await client.close();
  });

  it("rests a lane whose answer broke the cap: its next calls fail unsent, other lanes' calls go", async () => {
    const client = createUpstreamClient({ allowPrivate: true });
    const huge = { url: `${base}/huge`, deadlineMs: 30_000, lane: 'shop:big' };
    expect(await client.call(huge).catch((e: unknown) => e)).toMatchObject({ reason: 'too_large' });
    const callsBefore = hugeCalls;
    expect(await client.call(huge).catch((e: unknown) => e)).toMatchObject({ reason: 'resting', sent: false });
    const opened = await client.open({ ...huge, url: `${base}/lines` }).catch((e: unknown) => e);
    expect(opened).toMatchObject({ reason: 'resting' });
    expect(hugeCalls).toBe(callsBefore);
    expect((await client.call({ url: `${base}/lines`, deadlineMs: 5000, lane: 'shop:small' })).status).toBe(200);
    await client.close();
  });

  it('does not send a call that waited for a slot behind the one that broke the cap', async () => {
    const client = createUpstreamClient({ allowPrivate: true, perLane: 1 });
    const huge = { url: `${base}/huge`, deadlineMs: 30_000, lane: 'shop:queued' };
    const callsBefore = hugeCalls;
    const attempt = () => client.call(huge).catch((e: unknown) => e);
    const both = await Promise.all([attempt(), attempt()]);
    expect(both.map((e) => (e as UpstreamError).reason)).toEqual(['too_large', 'resting']);
    expect(hugeCalls).toBe(callsBefore + 1);
    await client.close();
  });

  it('ends a rest when its time is over', () => {
    let now = 1000;
    const resting = new RestingLanes(30_000, () => now);
    resting.noteFailure('shop:1', new UpstreamError('deadline', 'timed out', true, true));
    expect(() => resting.check('shop:1')).not.toThrow();
    resting.noteFailure('shop:1', new UpstreamError('too_large', 'too large', true, true));
    expect(() => resting.check('shop:1')).toThrow(/resume in 30 s/);
    now += 29_500;
    expect(() => resting.check('shop:1')).toThrow(/resume in 1 s/);
    now += 500;
    expect(() => resting.check('shop:1')).not.toThrow();
  });

  it('ends an answer that never finishes at the deadline, headers and body under one deadline', async () => {
    const client = createUpstreamClient({ allowPrivate: true });
    const failure = await client.call({ url: `${base}/never`, deadlineMs: 300 }).catch((e: unknown) => e);
    expect((failure as UpstreamError).reason).toBe('deadline');
    expect((failure as UpstreamError).answered).toBe(true);
    await client.close();
  });

  it('holds a lane to its slots: a call waiting behind a stalled one ends at its own deadline, unsent', async () => {
    const client = createUpstreamClient({ allowPrivate: true, perLane: 1 });
    const stalled = client.call({ url: `${base}/never`, deadlineMs: 2000, lane: 'shop:1' }).catch((e: unknown) => e);
    const waiting = await client
      .call({ url: `${base}/lines`, deadlineMs: 200, lane: 'shop:1' })
      .catch((e: unknown) => e);
    expect(waiting).toMatchObject({ reason: 'deadline', sent: false });
    // Another lane is not held up.
    expect((await client.call({ url: `${base}/lines`, deadlineMs: 2000, lane: 'shop:2' })).status).toBe(200);
    expect(await stalled).toMatchObject({ reason: 'deadline', answered: true });
    expect((await client.call({ url: `${base}/lines`, deadlineMs: 2000, lane: 'shop:1' })).status).toBe(200);
    // A finished answer gives its slot back too: calls one after another never wait.
    for (let i = 0; i < 3; i++)
      expect((await client.call({ url: `${base}/lines`, deadlineMs: 500, lane: 'shop:3' })).status).toBe(200);
    const opened = await client.open({ url: `${base}/lines`, deadlineMs: 500, lane: 'shop:3' });
    for await (const _ of opened.lines(100)) break;
    expect((await client.call({ url: `${base}/lines`, deadlineMs: 500, lane: 'shop:3' })).status).toBe(200);
    await client.close();
  });

  it('hands a JSONL answer over line by line, and stops at a line over its cap', async () => {
    const client = createUpstreamClient({ allowPrivate: true });
    const lines: string[] = [];
    for await (const line of (await client.open({ url: `${base}/lines`, deadlineMs: 5000 })).lines(100))
      lines.push(line);
    expect(lines).toEqual(['{"a":1}', '{"b":"é"}', '{"c":3}']);
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const line of (await client.open({ url: `${base}/long-line`, deadlineMs: 5000 })).lines(1000))
        seen.push(line);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['{"a":1}']);
    expect((failure as UpstreamError).reason).toBe('too_large');
    await client.close();
  });

  it('refuses a private address before connecting, and a name that resolves to one when it connects', async () => {
    let connections = 0;
    const tcp = createTcpServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const port = (tcp.address() as AddressInfo).port;
    const client = createUpstreamClient({ allowPrivate: false, lookup: toLoopback });
    for (const url of [
      `https://127.0.0.1:${port}/`,
      `https://0x7f000001:${port}/`,
      `https://rebound-rebind.test:${port}/`,
    ]) {
      const failure = await client.call({ url, deadlineMs: 5000 }).catch((e: unknown) => e);
      expect((failure as UpstreamError).reason, url).toBe('address');
      expect((failure as UpstreamError).sent).toBe(false);
    }
    await expect(client.checkResolves(`https://rebound-rebind.test:${port}`, 'base_url')).rejects.toMatchObject({
      problems: [{ path: 'base_url' }],
    });
    expect(connections).toBe(0);
    await client.close();
    await new Promise((resolve) => tcp.close(resolve));
  });
});
