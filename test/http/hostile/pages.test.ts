import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_PARAMS } from '../../../src/domain/billing/links.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { seedBilling } from '../../helpers/billing.js';
import { prototypeNames } from '../../helpers/hostile-values.js';
import { EXCLUDED, groupOf, type RouteEntry, routeKey, routeRecorder } from '../../helpers/route-table.js';
import { build, cases, newStats, SERVER_MS_BOUND, sendAndCheck, summary, withBound } from '../../helpers/sweep.js';

const ACCEPT = ['text/html', '*/*', '', 'application/json', 'text/html;q=0', 'text/*, application/xhtml+xml'];

/** The one-click billing page: real signed links with hostile parameters added, replaced and repeated. */
describe('hostile input on the billing pages', () => {
  const [backend] = backends();
  const rec = routeRecorder();
  let t: TestApp;
  let routes: RouteEntry[];
  const links: [string, string][][] = [];
  beforeAll(async () => {
    t = await startApp(backend!, {}, { beforeRoutes: rec.install });
    const shop = await seedBilling(t, 'pages');
    const campaign = (
      await t.admin('POST', '/admin/v1/shops/pages/campaigns', { name: 'Pages', max_claims_per_customer: 1000 })
    ).json().campaign.id;
    for (const type of ['live', 'preview']) {
      const res = await t.app.inject(
        `/api/v1/billing/reactivate?key=${shop.private}&billing_customer_id=100` +
          `&request_type=${type}&campaign_id=${campaign}&tk=__proto__`,
      );
      expect(res.statusCode, res.body).toBe(200);
      links.push([...new URL(res.json().data.service_reactivate_all_link).searchParams]);
    }
    routes = rec.routes.filter((r) => groupOf(r) === 'pages' && !EXCLUDED.some((e) => e.test(r)));
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  it(
    withBound('never answers 5xx, answers errors as pages', `at most ${SERVER_MS_BOUND} ms of server time a request`),
    async () => {
      const before = prototypeNames();
      const stats = newStats();
      const names = [...LINK_PARAMS, 'sig', 'utm_source', 'mc_cid', 'fbclid'];
      await fc.assert(
        fc.asyncProperty(
          cases(routes, names),
          fc.nat(links.length - 1),
          fc.constantFrom(...ACCEPT),
          fc.boolean(),
          async (c, link, accept, replace) => {
            // Replacing drops the link's own value of each generated
            // name, so the signature check sees the hostile one alone.
            const replaced = new Set(replace ? c.picks.map(([i]) => names[i % names.length]) : []);
            const query = links[link]!.filter(([name]) => !replaced.has(name));
            const built = build(c, { path: {}, query, names, headers: accept ? { accept } : {} });
            if (c.route.method === 'POST')
              built.options.headers = {
                ...(built.options.headers as object),
                'content-type': 'application/x-www-form-urlencoded',
              };
            await sendAndCheck(t, rec, built, c.route, stats);
          },
        ),
        { numRuns: 300, seed: 20261123 },
      );
      console.info(summary('billing page sweep', stats));
      expect(routes.map(routeKey).filter((k) => !stats.byRoute.has(k))).toEqual([]);
      expect(stats.statuses.get(200)).toBeGreaterThan(10);
      expect(prototypeNames()).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );
});
