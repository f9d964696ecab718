import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LANE_MAX_BYTES } from '../../../src/http/plugins/answer-lane.js';
import { AUTH_FAILURES_PER_MINUTE } from '../../../src/http/plugins/auth-failures.js';
import { staticSource } from '../../../src/services/lists/sources/catalog-lists.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';

interface Raw {
  status: number;
  /** Header lines as sent, in order, Date left out. */
  lines: string[];
  body: Buffer;
}

/**
 * The repeats of cached storefront GETs the lane answers before Fastify, over real HTTP (the lane sits in the server).
 */
describe.each(backends())('the answer lane on $name', (backend) => {
  let t: TestApp;
  let base: string;
  let key: string;
  beforeAll(async () => {
    t = await startApp(backend);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    key = (await t.createShop('lane')).public;
    await t.admin('PUT', '/admin/v1/shops/lane/products', [productInput(1), productInput(2), productInput(3)]);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<Raw>((resolve, reject) => {
      const req = request(`${base}${path}`, { method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const lines: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            if (res.rawHeaders[i] !== 'Date') lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
          resolve({ status: res.statusCode ?? 0, lines, body: Buffer.concat(chunks) });
        });
      });
      req.on('error', reject).end();
    });
  const served = () => t.app.answerLane.served;
  /** The same answer with the remaining count left out (it counts every request). */
  const shape = (raw: Raw) => raw.lines.filter((line) => !line.startsWith('x-ratelimit-remaining'));
  const remaining = (raw: Raw) => Number(raw.lines.find((l) => l.startsWith('x-ratelimit-remaining'))?.split(': ')[1]);

  it(
    "repeats a cached answer with the route's bytes and header lines, " + 'counting the rate limit as the route does',
    async () => {
      const url = `/api/v1/products/static?key=${key}&ids=1,2&limit=2`;
      const first = await get(url);
      expect(first.lines).toContain('x-cache: miss');
      const before = served();
      const repeat = await get(url);
      expect(served()).toBe(before + 1);
      // Another spelling of the same request is a hit the route answers: the lane's answer is that one.
      const routed = await get(`${url}&unknown=1`);
      expect(served()).toBe(before + 1);
      expect(shape(repeat)).toEqual(shape(routed));
      expect(repeat.body.equals(routed.body)).toBe(true);
      expect(repeat.body.equals(first.body)).toBe(true);
      expect([remaining(first), remaining(repeat), remaining(routed)]).toEqual([
        remaining(first),
        remaining(first) - 1,
        remaining(first) - 2,
      ]);
    },
  );

  it('counts its answers in the request metrics, as the route does', async () => {
    const url = `/api/v1/products/static?key=${key}&ids=2,3`;
    const count = async () => {
      const text = (await get('/metrics')).body.toString();
      const line = 'rebound_http_requests_total{route="/api/v1/products/static",method="GET",status="200"} ';
      return Number(
        text
          .split('\n')
          .find((l) => l.startsWith(line))
          ?.slice(line.length) ?? 0,
      );
    };
    await get(url);
    const [before, lane] = [await count(), served()];
    for (let i = 0; i < 3; i++) expect((await get(url)).status).toBe(200);
    expect(served()).toBe(lane + 3);
    expect(await count()).toBe(before + 3);
  });

  it('counts its answers as requests for their shop, which keep it resident before a shop asked less', async () => {
    const busy = (await t.createShop('lane-busy')).public;
    const quiet = (await t.createShop('lane-quiet')).public;
    for (const handle of ['lane-busy', 'lane-quiet'])
      await t.admin('PUT', `/admin/v1/shops/${handle}/products`, [productInput(1), productInput(2)]);
    const busyUrl = `/api/v1/products/static?key=${busy}&ids=1`;
    await get(busyUrl); // loads the shop: one request
    const lane = served();
    for (let i = 0; i < 5; i++) await get(busyUrl);
    expect(served()).toBe(lane + 5);
    // Three requests the route answers (each a new URL): more than the busy shop's one, fewer than its six.
    for (const ids of ['1', '2', '1,2']) await get(`/api/v1/products/static?key=${quiet}&ids=${ids}`);
    const order = (await t.admin('GET', '/admin/v1/node/residency'))
      .json()
      .shops.map((s: { handle: string }) => s.handle);
    expect(order.indexOf('lane-quiet')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('lane-quiet')).toBeLessThan(order.indexOf('lane-busy'));
  });

  it('sends the gzip bytes to clients that take them, as the route does', async () => {
    const url = `/api/v1/products/static?key=${key}&ids=1,2,3`;
    const plain = await get(url);
    let zipped = plain;
    await vi.waitFor(
      async () => {
        zipped = await get(url, { 'accept-encoding': 'gzip, deflate' });
        expect(zipped.lines).toContain('content-encoding: gzip');
      },
      { timeout: 30_000 },
    );
    const before = served();
    const again = await get(url, { 'accept-encoding': 'gzip, deflate' });
    expect(served()).toBe(before + 1);
    expect(shape(again)).toEqual(shape(zipped));
    expect(gunzipSync(again.body).equals(plain.body)).toBe(true);
  });

  it("leaves the answer to the route once the shop's data changed", async () => {
    const url = `/api/v1/products/static?key=${key}&ids=2`;
    await get(url);
    await get(url);
    await t.admin('PUT', '/admin/v1/shops/lane/products', [productInput(2, { title: 'Renamed' })]);
    const before = served();
    const after = await get(url);
    expect(served()).toBe(before);
    expect(after.lines).toContain('x-cache: miss');
    expect(JSON.parse(after.body.toString()).data[0].title).toBe('Renamed');
  });

  it('never repeats bust_cache=yes (computed afresh), a HEAD or a customer', async () => {
    const before = served();
    for (let i = 0; i < 2; i++) {
      const bust = await get(`/api/v1/products/static?key=${key}&ids=3&bust_cache=yes`);
      expect(bust.lines).toContain('x-cache: miss');
      expect((await get(`/api/v1/products/static?key=${key}&ids=3`, {}, 'HEAD')).status).toBe(200);
      await get(`/api/v1/products/purchased?key=${key}&shop_customer_id=5`);
    }
    expect(served()).toBe(before);
  });

  it("computes a list's bust_cache=yes afresh on every request, sending what the route sends", async () => {
    const candidates = vi.spyOn(staticSource, 'candidates');
    try {
      for (const url of [
        `/api/v1/products/static?key=${key}&ids=3,1&bust_cache=yes`,
        `/api/v1/products/static?key=${key}&ids=1,3&bust_cache=yes&format=pretty`,
      ]) {
        const routed = await get(url);
        expect(routed.lines).toContain('x-cache: miss');
        const [before, calls] = [t.app.answerLane.computed, candidates.mock.calls.length];
        const computed = await get(url);
        expect(t.app.answerLane.computed).toBe(before + 1);
        expect(candidates.mock.calls.length).toBe(calls + 1);
        expect(shape(computed)).toEqual(shape(routed));
        expect(computed.body.equals(routed.body)).toBe(true);
        expect(remaining(computed)).toBe(remaining(routed) - 1);
      }
      // The stored answer is the computed one: the plain URL is then a hit, repeated by the lane.
      const plain = await get(`/api/v1/products/static?key=${key}&ids=3,1`);
      expect(plain.lines).toContain('x-cache: hit');
      // A change to the shop: the route computes the new data, and the lane again after it.
      const url = `/api/v1/products/static?key=${key}&ids=3&bust_cache=yes`;
      await get(url);
      await t.admin('PUT', '/admin/v1/shops/lane/products', [productInput(3, { title: 'Changed' })]);
      const before = t.app.answerLane.computed;
      const changed = await get(url);
      expect(t.app.answerLane.computed).toBe(before);
      expect(JSON.parse(changed.body.toString()).data[0].title).toBe('Changed');
      expect((await get(url)).body.equals(changed.body)).toBe(true);
      expect(t.app.answerLane.computed).toBe(before + 1);
    } finally {
      candidates.mockRestore();
    }
  });

  it('hands a computation that fails to the route, the request counted once against the limit', async () => {
    const url = `/api/v1/products/static?key=${key}&ids=2,3&bust_cache=yes`;
    const routed = await get(url);
    const candidates = vi.spyOn(staticSource, 'candidates').mockImplementationOnce(() => {
      throw new Error('a failure the route meets no more');
    });
    try {
      const before = t.app.answerLane.computed;
      const answered = await get(url);
      expect(candidates).toHaveBeenCalledTimes(2);
      expect(t.app.answerLane.computed).toBe(before);
      expect(answered.status).toBe(200);
      expect(answered.body.equals(routed.body)).toBe(true);
      expect(remaining(answered)).toBe(remaining(routed) - 1);
    } finally {
      candidates.mockRestore();
    }
  });

  it("computes a ruleset's bust_cache=yes afresh too", async () => {
    const created = await t.admin('POST', '/admin/v1/shops/lane/rulesets', {
      name: 'lane',
      rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/static?ids=2,1' }] }],
    });
    const url = `/api/v1/custom/id/${created.json().ruleset.id}?key=${key}&limit=2&bust_cache=yes`;
    const routed = await get(url);
    const before = t.app.answerLane.computed;
    const computed = await get(url);
    expect(t.app.answerLane.computed).toBe(before + 1);
    expect(shape(computed)).toEqual(shape(routed));
    expect(computed.body.equals(routed.body)).toBe(true);
    expect(JSON.parse(computed.body.toString()).data.map((p: { id: number }) => p.id)).toEqual([2, 1]);
  });

  it('keeps its entries within a bound of bytes, however long the URLs it is asked', async () => {
    // By count alone (10,000 entries), URLs near the 2 KB the lane takes held about 40 MB of heap.
    const long = await t.createShop('lane-long');
    await t.admin('PUT', '/admin/v1/shops/lane-long/products', [productInput(1)]);
    await t.admin('PATCH', '/admin/v1/shops/lane-long', { settings: { rate_limit_public_per_minute: 100_000 } });
    const filler = Array.from({ length: 240 }, (_, i) => 7_000_000 + i).join(',');
    const urlOf = (i: number) => `/api/v1/products/static?key=${long.public}&ids=1,${9_000_000 + i},${filler}`;
    expect(urlOf(0).length).toBeGreaterThan(1900);
    expect(urlOf(0).length).toBeLessThanOrEqual(2048);
    for (let i = 0; i < 900; i++) expect((await get(urlOf(i))).status).toBe(200);
    const lane = t.app.answerLane;
    expect(lane.entryBytes).toBeLessThanOrEqual(LANE_MAX_BYTES);
    expect(lane.entryBytes).toBeGreaterThan(0.9 * LANE_MAX_BYTES);
    // The newest are the ones kept: the last URL is repeated by the lane, the first by the route.
    const before = served();
    await get(urlOf(899));
    expect(served()).toBe(before + 1);
    await get(urlOf(0));
    expect(served()).toBe(before + 1);
  });

  it("forgets a shop's entries when an erasure drops its answers: their URLs name its visitors", async () => {
    const other = await t.createShop('lane-other');
    await t.admin('PUT', '/admin/v1/shops/lane-other/products', [productInput(1)]);
    const mine = `/api/v1/products/static?key=${key}&ids=2&uuid=d00dfeed-0000-4000-8000-000000000001`;
    const theirs = `/api/v1/products/static?key=${other.public}&ids=1`;
    for (const url of [mine, theirs, mine, theirs]) expect((await get(url)).status).toBe(200);
    const bytes = t.app.answerLane.entryBytes;
    const erased = await t.admin('DELETE', '/admin/v1/shops/lane/customers/4321');
    expect(erased.statusCode, erased.body).toBe(200);
    expect(t.app.answerLane.entryBytes).toBeLessThan(bytes);
    // Another shop's entries stay: its repeat is still the lane's.
    const before = served();
    await get(theirs);
    expect(served()).toBe(before + 1);
  });

  it('stops at a revoked key, a limit reached and an address refused for failed authentications', async () => {
    const other = await t.createShop('lane-limits');
    await t.admin('PUT', '/admin/v1/shops/lane-limits/products', [productInput(1)]);
    await t.admin('PATCH', '/admin/v1/shops/lane-limits', { settings: { rate_limit_public_per_minute: 3 } });
    const url = `/api/v1/products/static?key=${other.public}&ids=1`;
    // Three allowed (the last two from the lane), then the route's 429, as without the lane.
    const statuses = [];
    const before = served();
    for (let i = 0; i < 4; i++) statuses.push((await get(url)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(served()).toBe(before + 2);

    const url2 = `/api/v1/products/static?key=${key}&ids=1`;
    await get(url2);
    await get(url2);
    const revocable = await t.createShop('lane-revoked');
    await t.admin('PUT', '/admin/v1/shops/lane-revoked/products', [productInput(1)]);
    const revokedUrl = `/api/v1/products/static?key=${revocable.public}&ids=1`;
    await get(revokedUrl);
    expect((await get(revokedUrl)).status).toBe(200);
    expect(served()).toBe(before + 4);
    await t.admin('POST', '/admin/v1/shops/lane-revoked/keys/revoke', { key_prefix: revocable.public });
    expect((await get(revokedUrl)).status).toBe(401);
    expect(served()).toBe(before + 4);

    // Failures are counted in fixed minutes: a run that straddles a boundary needs up to a second minute's
    // worth before the address is refused, so they are sent until it is.
    let failed = 0;
    for (let blocked = false; !blocked && failed < 3 * AUTH_FAILURES_PER_MINUTE; failed++)
      blocked = (await get('/api/v1/products/static?key=rb_pub_nope&ids=1')).status === 429;
    expect(failed).toBeGreaterThan(AUTH_FAILURES_PER_MINUTE);
    const refused = await get(url2);
    expect(refused.status).toBe(429);
    expect(refused.lines.some((line) => line.startsWith('retry-after'))).toBe(true);
  });
});
