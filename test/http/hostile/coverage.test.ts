import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { EXCLUDED, groupOf, routeKey, routeRecorder } from '../../helpers/route-table.js';

/**
 * The sweeps take their routes from the app's own route table (each sweep also checks it sent
 * every route of its group): a new route is swept without anyone listing it, and a route no sweep
 * covers fails here until it is given a group or a reason to be left out.
 */
describe('the hostile sweeps cover every registered route', () => {
  const [backend] = backends();
  const rec = routeRecorder();
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(backend!, {}, { beforeRoutes: rec.install });
    await t.app.ready();
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  it('swept = registered minus the commented exclusions', () => {
    const registered = rec.routes.map(routeKey);
    const excluded = rec.routes.filter((r) => EXCLUDED.some((e) => e.test(r)));
    const swept = rec.routes.filter((r) => !excluded.includes(r));
    expect(swept.filter((r) => groupOf(r) === null).map(routeKey)).toEqual([]);
    expect(new Set([...swept, ...excluded].map(routeKey))).toEqual(new Set(registered));
    // Every part of the API is in a sweep, not in the exclusions.
    for (const key of [
      'GET /api/v1/products/similar_products',
      'POST /api/v1/analytics/event',
      'GET /api/v1/billing/reactivate',
      'PATCH /admin/v1/shops/:handle',
      'POST /admin/v1/shops/:handle/keys/revoke',
      'POST /webhooks/shop/:shop',
      'POST /webhooks/billing/:shop',
      'GET /billing/reactivate',
      'POST /billing/reactivate',
      'GET /widget-demo',
      'GET /metrics',
    ]) {
      expect(swept.map(routeKey), key).toContain(key);
    }
    const groups = new Map<string, number>();
    for (const r of swept) groups.set(groupOf(r)!, (groups.get(groupOf(r)!) ?? 0) + 1);
    const byGroup = [...groups].map(([g, n]) => `${g} ${n}`).join(', ');
    console.info(
      `routes: ${registered.length} registered, ${swept.length} swept (${byGroup}), ${excluded.length} excluded`,
    );
    expect(swept.length).toBeGreaterThan(70);
  });
});
