import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { seedBilling } from '../../helpers/billing.js';
import { prototypeNames } from '../../helpers/hostile-values.js';
import { EXCLUDED, groupOf, type RouteEntry, routeKey, routeRecorder } from '../../helpers/route-table.js';
import { build, cases, newStats, sendAndCheck, summary, SWEEP_TITLE } from '../../helpers/sweep.js';

/** Fields of the admin documents (catalog, billing ledger, shops, rulesets, campaigns, experiments). */
const FIELDS = [
  'id',
  'title',
  'handle',
  'name',
  'variants',
  'price',
  'products',
  'product_id',
  'variant_id',
  'inventory_quantity',
  'body_html',
  'email',
  'tags',
  'countries',
  'currency',
  'created_at',
  'line_items',
  'customer_id',
  'address_id',
  'status',
  'scheduled_at',
  'type',
  'base_url',
  'api_token',
  'api_version',
  'max_claims_per_customer',
  'ruleset_id',
  'rules',
  'logic',
  'output',
  'arms',
  'weight',
  'winner',
  'scopes',
  'rate_limit',
  'settings',
  'key_prefix',
  'require_customer_signature',
];

/** Every admin route, with the operator token and with a shop's private key, under hostile parameters and bodies. */
describe('hostile input on the admin API', () => {
  const [backend] = backends();
  const rec = routeRecorder();
  let t: TestApp;
  let privateKey: string;
  let routes: RouteEntry[];
  beforeAll(async () => {
    t = await startApp(backend!, {}, { beforeRoutes: rec.install });
    privateKey = (await seedBilling(t, 'afuzz')).private;
    await t.createShop('victim');
    await t.admin('POST', '/admin/v1/shops/afuzz/campaigns', { name: 'Fuzzed' });
    await t.admin('POST', '/admin/v1/shops/afuzz/rulesets', {
      name: 'r',
      rules: [{ logic: [], output: [{ type: 'endpoint', endpoint: '/products/top_sellers' }] }],
    });
    routes = rec.routes.filter((r) => groupOf(r) === 'admin' && !EXCLUDED.some((e) => e.test(r)));
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  it(SWEEP_TITLE, async () => {
    const before = prototypeNames();
    const stats = newStats();
    await fc.assert(
      fc.asyncProperty(cases(routes, FIELDS), fc.boolean(), async (c, operator) => {
        // Key changes go to another shop, so the sweep's own private key stays valid.
        const handle = /\/keys\//.test(c.route.url) ? 'victim' : 'afuzz';
        const built = build(c, {
          path: { handle, id: '1' },
          headers: { authorization: `Bearer ${operator ? ADMIN_TOKEN : privateKey}` },
        });
        await sendAndCheck(t, rec, built, c.route, stats);
      }),
      { numRuns: 900, seed: 20261123 },
    );
    console.info(summary('admin sweep', stats));
    expect(routes.map(routeKey).filter((k) => !stats.byRoute.has(k))).toEqual([]);
    expect(stats.statuses.get(200)).toBeGreaterThan(50);
    expect(prototypeNames()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses oversized bodies with a JSON 413', async () => {
    const big = JSON.stringify({
      subject: 'user',
      verb: 'viewed',
      noun: 'product',
      shop_product_handle: 'x'.repeat(2 * 1024 * 1024),
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/event?key=nope',
      payload: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'Request body is too large.', code: 'payload_too_large' });
    const admin = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/shops',
      payload: big,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(admin.statusCode).toBe(413);
  });
});
