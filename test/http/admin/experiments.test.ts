import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe.each(backends())('experiments on $name', (backend) => {
  let t: TestApp;
  let key: string;
  const base = '/admin/v1/shops/exp/experiments';
  const custom = async (id: number, query = '') => {
    const res = await t.app.inject(`/api/v1/custom/id/${id}?key=${key}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const sourceOf = async (id: number, query = '') => (await custom(id, query)).json().metadata.source as string;
  const ruleset = (name: string, products: number[]) =>
    t.admin('POST', '/admin/v1/shops/exp/rulesets', {
      name,
      rules: [{ logic: [], output: [{ type: 'product', products: products.map((p) => ({ product_id: p })) }] }],
    });

  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('exp')).public;
    await t.admin(
      'PUT',
      '/admin/v1/shops/exp/products',
      [1, 2, 3, 4, 5, 6].map((id) => productInput(id)),
    );
    await ruleset('Base', [1, 2]); // 1
    await ruleset('Challenger', [3, 4]); // 2
    await ruleset('Other', [5, 6]); // 3
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it('refuses an arm with an unknown ruleset (naming it), duplicate arm names and bad weights', async () => {
    const unknown = await t.admin('POST', base, {
      name: 'x',
      ruleset_id: 1,
      arms: [
        { name: 'A', ruleset_id: 1, weight: 1 },
        { name: 'B', ruleset_id: 99, weight: 1 },
      ],
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().field).toBe('arms[1].ruleset_id');
    // A disabled ruleset, as the experiment's own or an arm's, would leave the experiment not running as set up.
    const off = (await ruleset('Off', [6])).json().ruleset;
    await t.admin('PUT', `/admin/v1/shops/exp/rulesets/${off.id}`, { name: 'Off', rules: off.rules, enabled: false });
    for (const [body, field] of [
      [
        {
          ruleset_id: off.id,
          arms: [
            { name: 'A', ruleset_id: 1, weight: 1 },
            { name: 'B', ruleset_id: 2, weight: 1 },
          ],
        },
        'ruleset_id',
      ],
      [
        {
          ruleset_id: 1,
          arms: [
            { name: 'A', ruleset_id: 1, weight: 1 },
            { name: 'B', ruleset_id: off.id, weight: 1 },
          ],
        },
        'arms[1].ruleset_id',
      ],
    ] as const) {
      const disabled = await t.admin('POST', base, { name: 'x', ...body });
      expect(disabled.statusCode).toBe(422);
      expect(disabled.json()).toMatchObject({ field, error: expect.stringContaining('disabled') });
    }
    const twice = await t.admin('POST', base, {
      name: 'x',
      ruleset_id: 1,
      arms: [
        { name: 'A', ruleset_id: 1, weight: 1 },
        { name: 'A', ruleset_id: 2, weight: 1 },
      ],
    });
    expect(twice.json().field).toBe('arms[1].name');
    const weight = await t.admin('POST', base, {
      name: 'x',
      ruleset_id: 1,
      arms: [
        { name: 'A', ruleset_id: 1, weight: 0 },
        { name: 'B', ruleset_id: 2, weight: 1 },
      ],
    });
    expect(weight.statusCode).toBe(422);
    expect(weight.json().error).toContain('arms[0].weight');
    expect(
      (
        await t.admin('POST', base, {
          name: 'x',
          ruleset_id: 42,
          arms: [
            { name: 'A', ruleset_id: 1, weight: 1 },
            { name: 'B', ruleset_id: null, weight: 1 },
          ],
        })
      ).json().field,
    ).toBe('ruleset_id');
  });

  it(
    'creates a running experiment with the documented shape, and ' + 'a second one on the same ruleset is a 409',
    async () => {
      // After a restart no shop is in memory until something asks: the admin call loads it.
      t.services.catalogIndex.evict((await t.admin('GET', '/admin/v1/shops/exp')).json().shop.id);
      const res = await t.admin('POST', base, {
        name: 'Upsell test',
        ruleset_id: 1,
        arms: [
          { name: 'A', ruleset_id: 1, weight: 1 },
          { name: 'B', ruleset_id: 2, weight: 1 },
          { name: 'none', ruleset_id: null, weight: 1 },
        ],
      });
      expect(res.statusCode, res.body).toBe(201);
      const { experiment } = res.json();
      expect(experiment).toMatchObject({
        id: 1,
        name: 'Upsell test',
        ruleset_id: 1,
        status: 'running',
        arms: [
          { name: 'A', ruleset_id: 1, weight: 1 },
          { name: 'B', ruleset_id: 2, weight: 1 },
          { name: 'none', ruleset_id: null, weight: 1 },
        ],
      });
      expect(Date.parse(experiment.created_at)).not.toBeNaN();
      const again = await t.admin('POST', base, {
        name: 'again',
        ruleset_id: 1,
        arms: [
          { name: 'A', ruleset_id: 1, weight: 1 },
          { name: 'C', ruleset_id: 3, weight: 1 },
        ],
      });
      expect(again.statusCode).toBe(409);
      expect((await t.admin('GET', `${base}/1`)).json().experiment.status).toBe('running');
      expect((await t.admin('GET', base)).json().data.map((e: { id: number }) => e.id)).toEqual([1]);
      expect((await t.admin('GET', `${base}/77`)).statusCode).toBe(404);
    },
  );

  it('serves each visitor one arm, always the same, and cached answers stay cached bytes', async () => {
    const seen = new Map<string, number>();
    for (let n = 1; n <= 60; n++) {
      const source = await sourceOf(1, `&uuid=${uuid(n)}`);
      expect(source).toMatch(/^ruleset:(1:v1:arm:A|2:v1:arm:B|1:v1:arm:none)$/);
      seen.set(source, (seen.get(source) ?? 0) + 1);
      expect(await sourceOf(1, `&uuid=${uuid(n).toUpperCase()}&x=${n}`)).toBe(source);
    }
    expect(seen.size).toBe(3);
    const first = await custom(1, `&uuid=${uuid(1)}`);
    const second = await custom(1, `&uuid=${uuid(1)}&unknown=1`);
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
  });

  it(
    'answers the empty control with no products, the first arm without ' +
      "a visitor, and an arm's own ruleset outside the experiment",
    async () => {
      let control: string | null = null;
      for (let n = 1; control === null; n++) {
        const res = await custom(1, `&uuid=${uuid(n)}`);
        if (res.json().metadata.source === 'ruleset:1:v1:arm:none') {
          control = uuid(n);
          expect(res.json().data).toEqual([]);
        }
      }
      expect(await sourceOf(1)).toBe('ruleset:1:v1:arm:A');
      expect(await sourceOf(1, '&shop_customer_id=5')).toMatch(/:arm:/);
      expect(await sourceOf(2, `&uuid=${control}`)).toBe('ruleset:2:v1');
    },
  );

  it('counts visitors, tracked events and attributed orders per arm, with intervals and p_beats_first', async () => {
    const served = new Map<string, string>();
    for (let n = 100; n < 160; n++) served.set(uuid(n), await sourceOf(1, `&uuid=${uuid(n)}`));
    const events = [...served].flatMap(([visitor, source]) => [
      { type: 'impression', uuid: visitor, source, product_id: 1 },
      ...(source.endsWith(':B')
        ? [
            { type: 'click', uuid: visitor, source, product_id: 3 },
            { type: 'add_to_cart', uuid: visitor, source, product_id: 3 },
          ]
        : []),
    ]);
    for (let i = 0; i < events.length; i += 100) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/analytics/track?key=${key}`,
        payload: { events: events.slice(i, i + 100) },
      });
      expect(res.json()).toEqual({ data: 'Received', accepted: Math.min(100, events.length - i) });
    }
    const bSource = [...served.values()].find((s) => s.endsWith(':B'))!;
    const orders = [0, 1, 2].map((i) => ({
      id: 500 + i,
      created_at: new Date().toISOString(),
      line_items: [
        {
          product_id: 3,
          quantity: 1,
          price: `${10 + i * 5}.00`,
          properties: [{ name: '_rebound_source', value: bSource }],
        },
      ],
    }));
    expect((await t.admin('PUT', '/admin/v1/shops/exp/orders', orders)).statusCode).toBe(200);

    const res = await t.admin('GET', `${base}/1/results`);
    expect(res.statusCode, res.body).toBe(200);
    const { experiment, arms } = res.json();
    expect(experiment.id).toBe(1);
    expect(arms.map((a: { name: string }) => a.name)).toEqual(['A', 'B', 'none']);
    const visitors = arms.reduce((sum: number, a: { visitors: number }) => sum + a.visitors, 0);
    // + 1: the customer
    const distinct = new Set([...Array.from({ length: 60 }, (_, i) => uuid(i + 1)), ...served.keys()]).size + 1;
    expect(visitors).toBe(distinct);
    const b = arms[1];
    const bServed = [...served.values()].filter((s) => s.endsWith(':B')).length;
    expect(b).toMatchObject({ impressions: bServed, clicks: bServed, add_to_carts: bServed, orders: 3, revenue: 45 });
    expect(b.ctr).toMatchObject({ value: 1 });
    expect(b.conversion.value).toBeCloseTo(3 / b.visitors, 10);
    expect(b.conversion.low).toBeLessThan(b.conversion.value);
    expect(b.conversion.high).toBeGreaterThan(b.conversion.value);
    expect(b.revenue_per_visitor.value).toBeCloseTo(45 / b.visitors, 10);
    expect(b.revenue_per_visitor.low).toBeLessThan(b.revenue_per_visitor.value);
    expect(arms[0].p_beats_first).toBeNull();
    expect(b.p_beats_first.conversion).toBeGreaterThan(0.5);
    expect(b.p_beats_first.conversion).toBeLessThanOrEqual(1);
    expect(arms[0].conversion).toMatchObject({ value: 0, low: 0 });
    expect(arms[0].revenue_per_visitor).toEqual({ value: 0, low: null, high: null });
    const series = (await t.admin('GET', `${base}/1/series`)).json();
    expect(series.arms).toEqual(['A', 'B', 'none']);
    expect(series.days.at(-1).arms[1]).toMatchObject({ orders: 3, revenue: 45 });
  });

  it('stops with a winner: its ruleset then serves every visitor, without an arm', async () => {
    expect((await t.admin('POST', `${base}/1/stop`, { winner: 'Z' })).json().field).toBe('winner');
    const res = await t.admin('POST', `${base}/1/stop`, { winner: 'B' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().experiment).toMatchObject({ status: 'stopped', winner: 'B' });
    expect((await t.admin('POST', `${base}/1/stop`, { winner: 'B' })).statusCode).toBe(200);
    expect((await t.admin('POST', `${base}/1/stop`, { winner: 'A' })).statusCode).toBe(409);
    for (let n = 1; n <= 10; n++) {
      const answer = (await custom(1, `&uuid=${uuid(n)}`)).json();
      expect(answer.metadata.source).toBe('ruleset:2:v1');
      expect(answer.data.map((p: { id: number }) => p.id)).toEqual([3, 4]);
    }
    expect((await t.admin('GET', `${base}/1/results`)).json().arms[1].orders).toBe(3);
  });

  it('lets a new experiment run on the ruleset after the stop, and a stop without a winner hands it back', async () => {
    const res = await t.admin('POST', base, {
      name: 'Round two',
      ruleset_id: 1,
      arms: [
        { name: 'A', ruleset_id: 1, weight: 3 },
        { name: 'C', ruleset_id: 3, weight: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await sourceOf(1)).toBe('ruleset:1:v1:arm:A');
    // An arm's ruleset stays while the experiment runs: deleting it would move its visitors silently.
    const busy = await t.admin('DELETE', '/admin/v1/shops/exp/rulesets/3');
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ code: 'conflict', error: expect.stringContaining('experiment 2') });
    // An arm whose ruleset was disabled since cannot win: the ruleset would serve itself instead.
    const other = {
      name: 'Other',
      rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 5 }] }] }],
    };
    await t.admin('PUT', '/admin/v1/shops/exp/rulesets/3', { ...other, enabled: false });
    const disabledWinner = await t.admin('POST', `${base}/2/stop`, { winner: 'C' });
    expect(disabledWinner.statusCode).toBe(422);
    expect(disabledWinner.json()).toMatchObject({ field: 'winner', error: expect.stringContaining('disabled') });
    await t.admin('POST', `${base}/2/stop`, { winner: null });
    expect(await sourceOf(1, `&uuid=${uuid(3)}`)).toBe('ruleset:1:v1');
    expect((await t.admin('DELETE', '/admin/v1/shops/exp/rulesets/3')).statusCode).toBe(204);
  });
});
