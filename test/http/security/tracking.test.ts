import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
// biome-ignore lint/suspicious/noExplicitAny: the assertions read the answers as any client does, field by field
type Json = any;

/** Tracking counts what happened once (docs/attribution.md, "Tracking"), over real HTTP. */
describe.each(backends())('forged tracking on $name', (backend) => {
  let t: TestApp;
  let base: string;
  let key: string;
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    bearer?: string,
  ): Promise<{ status: number; json: Json }> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, json: await res.json() };
  };
  const admin = (method: string, path: string, body?: unknown) => call(method, path, body, t.config.adminToken!);
  const track = (events: unknown[], apiKey = key) => call('POST', `/api/v1/analytics/track?key=${apiKey}`, { events });
  const sourceOf = async (visitor: string) =>
    (await call('GET', `/api/v1/custom/id/1?key=${key}&uuid=${visitor}`)).json.metadata.source as string;
  const arms = async () => (await admin('GET', '/admin/v1/shops/forge/experiments/1/results')).json.arms as Json[];
  const lists = async () => (await admin('GET', '/admin/v1/shops/forge/attribution?days=3')).json.lists as Json[];

  beforeAll(async () => {
    t = await startApp(backend);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    key = (await t.createShop('forge')).public;
    await t.admin(
      'PUT',
      '/admin/v1/shops/forge/products',
      [1, 2, 3, 4].map((id) => productInput(id)),
    );
    for (const [name, products] of [
      ['A', [1, 2]],
      ['B', [3, 4]],
    ] as const)
      await t.admin('POST', '/admin/v1/shops/forge/rulesets', {
        name,
        rules: [{ logic: [], output: [{ type: 'product', products: products.map((p) => ({ product_id: p })) }] }],
      });
    const experiment = await t.admin('POST', '/admin/v1/shops/forge/experiments', {
      name: 'A/B',
      ruleset_id: 1,
      arms: [
        { name: 'A', ruleset_id: 1, weight: 1 },
        { name: 'B', ruleset_id: 2, weight: 1 },
      ],
    });
    expect(experiment.statusCode, experiment.body).toBe(201);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it('counts 50 identical clicks, and a batch of 100 more, once; acknowledging each', async () => {
    const click = { type: 'click', uuid: uuid(1), source: 'list:trending_products', product_id: 2 };
    for (let i = 0; i < 50; i++) {
      const res = await call(
        'POST',
        `/api/v1/analytics/track?key=${key}&type=click&uuid=${uuid(1)}&source=list:trending_products&product_id=2`,
      );
      expect(res.json).toEqual({ data: 'Received', accepted: 1 });
    }
    expect((await track(Array.from({ length: 100 }, () => click))).json).toEqual({ data: 'Received', accepted: 100 });
    expect((await lists()).find((l: Json) => l.list === 'trending_products')).toMatchObject({ clicks: 1 });
    // Another product, another visitor or another type counts.
    await track([
      { ...click, product_id: 3 },
      { ...click, uuid: uuid(2) },
      { ...click, type: 'impression' },
    ]);
    expect((await lists()).find((l: Json) => l.list === 'trending_products')).toMatchObject({
      clicks: 3,
      impressions: 1,
    });
  });

  it("counts an arm's events only for the visitors that arm served", async () => {
    const visitors = Array.from({ length: 40 }, (_, i) => uuid(100 + i));
    const served = new Map<string, string>();
    for (const v of visitors) served.set(v, await sourceOf(v));
    const [bSource] = [...served.values()].filter((s) => s.endsWith(':B'));
    const bVisitors = [...served].filter(([, s]) => s === bSource).map(([v]) => v);
    const strangers = Array.from({ length: 95 }, (_, i) => uuid(5000 + i));
    // Forged: the B arm's source, sent by visitors it never served (and by those A served).
    const forged = [...strangers, ...[...served].filter(([, s]) => s !== bSource).map(([v]) => v)].map((v) => ({
      type: 'click',
      uuid: v,
      source: bSource,
      product_id: 3,
    }));
    for (let i = 0; i < forged.length; i += 100) expect((await track(forged.slice(i, i + 100))).status).toBe(200);
    expect((await arms())[1]).toMatchObject({ clicks: 0 });
    expect(
      (await track(bVisitors.map((v) => ({ type: 'click', uuid: v, source: bSource, product_id: 3 })))).status,
    ).toBe(200);
    expect((await arms())[1]).toMatchObject({ clicks: bVisitors.length });
  });

  it('checks customer signatures in the batch form as in the single form', async () => {
    expect(
      (await admin('PATCH', '/admin/v1/shops/forge', { settings: { require_customer_signature: true } })).status,
    ).toBe(200);
    const secret = (await admin('GET', '/admin/v1/shops/forge/signing-secret')).json.signing_secret as string;
    const sig = createHmac('sha256', secret).update('77').digest('hex');
    const event = { type: 'click', shop_customer_id: 77, source: 'list:trending_products', product_id: 4 };
    const single = await call('POST', `/api/v1/analytics/track?key=${key}&type=click&shop_customer_id=77&product_id=4`);
    expect(single.status).toBe(403);
    const unsigned = await track([{ type: 'impression', uuid: uuid(9) }, event]);
    expect(unsigned.status).toBe(403);
    expect(unsigned.json.error).toContain('events[1]');
    expect((await track([{ ...event, customer_sig: 'ab'.repeat(32) }])).status).toBe(403);
    expect((await track([{ ...event, customer_sig: sig }])).status).toBe(200);
    expect(
      (
        await call(
          'POST',
          `/api/v1/analytics/track?key=${key}&type=click&shop_customer_id=77&product_id=4&customer_sig=${sig}`,
        )
      ).status,
    ).toBe(200);
    expect(
      (await admin('PATCH', '/admin/v1/shops/forge', { settings: { require_customer_signature: false } })).status,
    ).toBe(200);
  });

  it('limits track requests per client address', async () => {
    expect(
      (await admin('PATCH', '/admin/v1/shops/forge', { settings: { rate_limit_public_per_minute: 3 } })).status,
    ).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await track([{ type: 'impression', uuid: uuid(300 + i) }])).status);
    // At most 3 a minute from this address: of 5, at least 2 are refused (every one, when the tests before
    // already sent 3 this minute; a minute that turns meanwhile lets at most 3 through).
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(2);
    expect(
      (await admin('PATCH', '/admin/v1/shops/forge', { settings: { rate_limit_public_per_minute: 1000 } })).status,
    ).toBe(200);
  });
});
