import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { seedBilling } from '../../helpers/billing.js';
import { headerSafe, hostileText, prototypeNames } from '../../helpers/hostile-values.js';
import { EXCLUDED, groupOf, type RouteEntry, routeKey, routeRecorder } from '../../helpers/route-table.js';
import { build, cases, newStats, sendAndCheck, summary, SWEEP_TITLE } from '../../helpers/sweep.js';

const BILLING_SECRET = 'billing-client-secret-0123456789';
const SHOP_SECRET = 'storefront-webhook-secret-0123456789';

/** The fields the platforms send, for generated payloads. */
const FIELDS = [
  'id',
  'product',
  'products',
  'subscription',
  'customer',
  'address',
  'charge',
  'variants',
  'title',
  'handle',
  'status',
  'inventory_item_id',
  'available',
  'line_items',
  'updated_at',
  'body_html',
  'external_product_id',
  'customer_id',
];
const TOPICS = [
  'products/create',
  'products/update',
  'products/delete',
  'collections/update',
  'inventory_levels/update',
  'orders/create',
  'subscription/updated',
  'subscription/cancelled',
  'customer/updated',
  'address/updated',
  'charge/created',
];

/** Each dialect's headers, signed over the raw body as that platform signs it (or deliberately wrong). */
const DIALECTS = {
  neutral: (raw: string, topic: string) => ({
    'x-shop-hmac-sha256': createHmac('sha256', SHOP_SECRET).update(raw).digest('base64'),
    'x-shop-topic': topic,
  }),
  platform: (raw: string, topic: string) => ({
    'x-shopify-hmac-sha256': createHmac('sha256', SHOP_SECRET).update(raw).digest('base64'),
    'x-shopify-topic': topic,
  }),
  'billing-neutral': (raw: string, topic: string) => ({
    'x-billing-hmac-sha256': createHmac('sha256', BILLING_SECRET).update(raw).digest('hex'),
    'x-billing-topic': topic,
  }),
  'billing-timed': (raw: string, topic: string) => {
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', BILLING_SECRET).update(`${t}.${raw}`).digest('hex');
    return {
      'x-recharge-webhook-signature': `t=${t},v1=${v1}`,
      'x-recharge-webhook-timestamp': String(t),
      'x-recharge-topic': topic,
    };
  },
  'billing-legacy': (raw: string, topic: string) => ({
    'x-recharge-hmac-sha256': createHash('sha256')
      .update(BILLING_SECRET + raw)
      .digest('hex'),
    'x-recharge-topic': topic,
  }),
  forged: (_raw: string, topic: string) => ({
    'x-shop-hmac-sha256': 'AAAA',
    'x-billing-hmac-sha256': 'beef',
    'x-shop-topic': topic,
    'x-billing-topic': topic,
  }),
  unsigned: (): Record<string, string> => ({}),
};

/** Both webhook receivers, in every dialect, signed and forged, under generated payloads and headers. */
describe('hostile input on the webhook receivers', () => {
  const [backend] = backends();
  const rec = routeRecorder();
  let t: TestApp;
  let routes: RouteEntry[];
  beforeAll(async () => {
    t = await startApp(backend!, {}, { beforeRoutes: rec.install });
    await seedBilling(t, 'hooks');
    await t.admin('PATCH', '/admin/v1/shops/hooks', {
      billing_webhook_secret: BILLING_SECRET,
      webhook_secret: SHOP_SECRET,
    });
    routes = rec.routes.filter((r) => groupOf(r) === 'webhooks' && !EXCLUDED.some((e) => e.test(r)));
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  it(SWEEP_TITLE, async () => {
    const before = prototypeNames();
    const stats = newStats();
    const topic = fc.oneof(fc.constantFrom(...TOPICS), hostileText.map(headerSafe));
    await fc.assert(
      fc.asyncProperty(
        cases(routes, FIELDS),
        fc.constantFrom(...(Object.keys(DIALECTS) as (keyof typeof DIALECTS)[])),
        topic,
        async (c, dialect, name) => {
          const built = build(
            { ...c, shape: c.shape === 'repeated' || c.shape === 'bracketed' ? 'raw-json' : c.shape },
            { path: { shop: 'hooks' } },
          );
          const raw = typeof built.options.payload === 'string' ? built.options.payload : '';
          built.options.headers = {
            ...(built.options.headers as Record<string, string>),
            ...DIALECTS[dialect](raw, name),
          };
          await sendAndCheck(
            t,
            rec,
            { ...built, label: `${dialect} ${name.slice(0, 40)} ${built.label}` },
            c.route,
            stats,
          );
        },
      ),
      { numRuns: 400, seed: 20261123 },
    );
    console.info(summary('webhook sweep', stats));
    expect(routes.map(routeKey).filter((k) => !stats.byRoute.has(k))).toEqual([]);
    expect(stats.statuses.get(200)).toBeGreaterThan(20);
    expect(prototypeNames()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names the missing object by the field the platform sends it in', async () => {
    for (const [topic, field] of [
      ['address/updated', 'address'],
      ['subscription/updated', 'subscription'],
      ['charge/created', 'charge'],
    ] as const) {
      const raw = JSON.stringify({ other: {} });
      const res = await t.app.inject({
        method: 'POST',
        url: '/webhooks/billing/hooks',
        payload: raw,
        headers: { 'content-type': 'application/json', ...DIALECTS['billing-legacy'](raw, topic) },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe(`The webhook body has no ${field} object.`);
    }
  });
});
