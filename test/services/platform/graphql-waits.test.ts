import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphqlClient } from '../../../src/services/platform/graphql.js';
import { createUpstreamClient } from '../../../src/services/upstream/client.js';

/**
 * What the platform asks to wait is waited at most `maxWaitMs` a time (docs/api.md, "Connecting the platform"):
 * a server answering as the platform documents 429 and its cost throttle, asking for a day.
 * Unbounded, either held the shop's sync and the webhooks behind it for that long (the test's own
 * timeout, not a measured time, tells the two apart).
 */
describe('waits the platform asks for are bounded', () => {
  const answers: ((res: import('node:http').ServerResponse) => void)[] = [];
  let server: Server;
  let apiUrl = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => (answers.shift() ?? ok(1))(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/api/2025-10`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const ok =
    (available: number, restoreRate = 50) =>
    (res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const throttleStatus = { maximumAvailable: 1000, currentlyAvailable: available, restoreRate };
      res.end(
        JSON.stringify({
          data: { shop: { name: 'x' } },
          extensions: { cost: { requestedQueryCost: 10, throttleStatus } },
        }),
      );
    };
  const client = () =>
    createGraphqlClient({
      upstream: createUpstreamClient({ allowPrivate: true }),
      apiUrl,
      token: 'token',
      policy: { maxWaitMs: 200, backoffMs: 10 },
    });

  it('retries a 429 after at most maxWaitMs, whatever its Retry-After', async () => {
    answers.push((res) => {
      res.writeHead(429, { 'retry-after': '86400' });
      res.end();
    }, ok(990));
    expect(await client().request('{ shop { name } }')).toEqual({ shop: { name: 'x' } });
  });

  it('waits at most maxWaitMs for a bucket that restores a thousandth of a point a second', async () => {
    const gql = client();
    answers.push(ok(0, 0.001), ok(990));
    await gql.request('{ shop { name } }');
    expect(await gql.request('{ shop { name } }')).toEqual({ shop: { name: 'x' } });
  });

  it('ends a wait between tries once the process is stopping, as a stopped sync', async () => {
    let stopping = false;
    const gql = createGraphqlClient({
      upstream: createUpstreamClient({ allowPrivate: true }),
      apiUrl,
      token: 'token',
      // A wait of a day: only the stop can end it within the test's timeout.
      policy: { maxWaitMs: 86_400_000, backoffMs: 10, tries: 8 },
      stopping: () => stopping,
    });
    answers.push((res) => {
      res.writeHead(429, { 'retry-after': '86400' });
      res.end();
    });
    const call = gql.request('{ shop { name } }');
    setTimeout(() => {
      stopping = true;
    }, 50);
    await expect(call).rejects.toThrow('the sync was stopped');
  });
});
