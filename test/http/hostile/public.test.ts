import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { seedBilling } from '../../helpers/billing.js';
import { prototypeNames } from '../../helpers/hostile-values.js';
import { EXCLUDED, groupOf, type RouteEntry, routeKey, routeRecorder } from '../../helpers/route-table.js';
import { build, cases, newStats, sendAndCheck, summary, SWEEP_TITLE } from '../../helpers/sweep.js';

/** Every public route (storefront API, widget, health, metrics) under hostile values of every parameter it declares. */
describe('hostile input on the public routes', () => {
  const [backend] = backends();
  const rec = routeRecorder();
  let t: TestApp;
  let keys: { public: string; private: string };
  let rulesetId: number;
  let routes: RouteEntry[];
  beforeAll(async () => {
    t = await startApp(backend!, {}, { beforeRoutes: rec.install });
    keys = await seedBilling(t, 'fuzz');
    const ruleset = await t.admin('POST', '/admin/v1/shops/fuzz/rulesets', {
      name: 'r',
      rules: [
        {
          logic: [{ rules: [{ type: 'url', operator: 'matches_regex', value: '/^(a+)+$/' }] }],
          output: [{ type: 'endpoint', endpoint: '/products/similar_products' }],
        },
        { logic: [], output: [{ type: 'endpoint', endpoint: '/products/trending_products' }] },
      ],
    });
    expect(ruleset.statusCode, ruleset.body).toBe(201);
    rulesetId = ruleset.json().ruleset.id;
    routes = rec.routes.filter((r) => groupOf(r) === 'public' && !EXCLUDED.some((e) => e.test(r)));
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  it(SWEEP_TITLE, async () => {
    const before = prototypeNames();
    const stats = newStats();
    await fc.assert(
      fc.asyncProperty(cases(routes, ['subject', 'verb', 'noun', 'type', 'events', 'uuid']), async (c) => {
        const key = c.route.url.startsWith('/api/v1/billing') ? keys.private : keys.public;
        const built = build(c, {
          path: { ruleset_id: String(rulesetId), name: 'x.png' },
          query: [['key', key]],
          names: ['key', 'product', 'presentment_prices'],
        });
        await sendAndCheck(t, rec, built, c.route, stats);
      }),
      { numRuns: 700, seed: 20261123, endOnFailure: false },
    );
    console.info(summary('public sweep', stats));
    expect(stats.statuses.get(200)).toBeGreaterThan(50);
    expect([...routes.map(routeKey)].filter((k) => !stats.byRoute.has(k))).toEqual([]);
    expect(prototypeNames()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
