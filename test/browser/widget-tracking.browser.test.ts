import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, listen, screenshot, watchErrors } from '../helpers/browser.js';
import { backends } from '../helpers/backends.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { productInput } from '../helpers/fixtures.js';

const read = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => resolve(body));
  });

/**
 * Polls until the condition holds (the tracking beacons are sent in the background); the test's limit bounds a hang.
 */
async function until<T>(read: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The widget on a storefront of another origin, against the real server: an impression once the
 * widget is scrolled into view, a click on a card, and the storefront's add-to-cart (a form post
 * and a fetch of /cart/add.js) carrying `_rebound_source`, which then attributes the order.
 */
describe.skipIf(!inject('chromium'))("the widget's tracking in Chromium", () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let key: string;
  let browser: Browser;
  let site: Server;
  let siteUrl: string;
  const cartBodies: { path: string; type: string; body: string }[] = [];

  const figures = async () =>
    (
      (await t.admin('GET', '/admin/v1/shops/shop/attribution?days=2')).json().rulesets as {
        ruleset_id: number;
        impressions: number;
        clicks: number;
        add_to_carts: number;
        orders: number;
        revenue: number;
      }[]
    ).find((r) => r.ruleset_id === 1) ?? { impressions: 0, clicks: 0, add_to_carts: 0, orders: 0, revenue: 0 };

  /** Bodies of the track calls made through the storefront's own proxy (`/rebound/…`, the `data-api` prefix). */
  const proxiedTracks: string[] = [];

  const page = (
    title: string,
    variant: number,
    api = '',
  ) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>
    <h1>${title}</h1>
    <form id="cart" action="/cart/add" method="post"><input type="hidden" name="id" value="${variant}">\
<input type="hidden" name="quantity" value="1"><button>Add to cart</button></form>
    <div style="height: 2400px">Product description</div>
    <div id="recs"></div>
    <script src="${base}/widget.js" data-key="${key}" data-ruleset="1" data-target="#recs" \
data-product-url="/products/{handle}" data-currency="USD"${api ? ` data-api="${api}"` : ''}></script>
  </body></html>`;

  /** The storefront's proxy to the API: what the widget sends is read here, beacons included. */
  const proxy = async (request: IncomingMessage, response: import('node:http').ServerResponse) => {
    const body = request.method === 'POST' ? await read(request) : undefined;
    if (request.url!.includes('/api/v1/analytics/track')) proxiedTracks.push(body ?? '');
    const answer = await fetch(`${base}${request.url!.slice('/rebound'.length)}`, {
      method: request.method,
      body,
      headers: { 'content-type': request.headers['content-type'] ?? 'text/plain' },
    });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    response.end(Buffer.from(await answer.arrayBuffer()));
  };

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    key = (await t.createShop('shop', { currency: 'USD' })).public;
    await t.admin(
      'PUT',
      '/admin/v1/shops/shop/products',
      [1, 2, 3].map((id) => productInput(id, { title: `Item ${id}`, images: [] })),
    );
    await t.admin('POST', '/admin/v1/shops/shop/rulesets', {
      name: 'Upsell',
      rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 2 }, { product_id: 3 }] }] }],
    });
    site = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      if (path.startsWith('/rebound/')) {
        void proxy(request, response);
        return;
      }
      if (request.method === 'POST' && path.startsWith('/cart/add')) {
        void read(request).then((body) => {
          cartBodies.push({ path, type: request.headers['content-type'] ?? '', body });
          if (path.endsWith('.js')) response.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}');
          else response.writeHead(303, { location: '/cart' }).end();
        });
        return;
      }
      const handle = /^\/products\/([a-z0-9-]+)$/.exec(path)?.[1];
      const id = handle ? Number(handle.split('-')[1]) : 1;
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          path === '/cart'
            ? '<!doctype html><title>Cart</title><h1>Cart</h1>'
            : page(`Item ${id}`, id * 10 + 1, id === 3 ? `${siteUrl}/rebound` : ''),
        );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await t?.close();
    await backend.cleanup();
  });

  it(
    'reports the impression when the widget is seen, the click, and ' +
      'tags the add-to-cart calls with _rebound_source',
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const tab = await context.newPage();
      tab.setDefaultTimeout(10_000);
      const errors = watchErrors(tab);
      await tab.goto(`${siteUrl}/products/product-1`);
      await tab.waitForSelector('section.rbw li.rbw-card');
      const source = 'ruleset:1:v1';

      // Below the fold: nothing is reported until the visitor scrolls to it.
      await tab.waitForLoadState('networkidle');
      expect((await figures()).impressions).toBe(0);
      await tab.locator('section.rbw').scrollIntoViewIfNeeded();
      expect((await until(figures, (f) => f.impressions === 1)).impressions).toBe(1);

      // A click on a card: tracked (as a beacon, which outlives the page) and remembered for the cart.
      await tab.click('section.rbw a.rbw-link >> nth=0');
      await tab.waitForURL(/\/products\/product-2$/);
      expect((await until(figures, (f) => f.clicks === 1)).clicks).toBe(1);
      await tab.waitForSelector('section.rbw li.rbw-card');

      // The product page's own add-to-cart form carries the property.
      await tab.click('#cart button');
      await tab.waitForURL(/\/cart$/);
      const form = new URLSearchParams(cartBodies.at(-1)!.body);
      expect(Object.fromEntries(form)).toEqual({ id: '21', quantity: '1', 'properties[_rebound_source]': source });

      // A theme's fetch to /cart/add.js (JSON) too; a product that came from no widget stays untagged.
      await tab.goto(`${siteUrl}/products/product-2`);
      await tab.waitForSelector('section.rbw li.rbw-card');
      await tab.evaluate(
        "fetch('/cart/add.js', { method: 'POST', headers: { 'content-type': 'application/json' }, " +
          'body: JSON.stringify({ items: [{ id: 21, quantity: 2 }, { id: 11, quantity: 1 }] }) })',
      );
      await until(
        async () => cartBodies.length,
        (n) => n === 2,
      );
      expect(JSON.parse(cartBodies.at(-1)!.body)).toEqual({
        items: [
          { id: 21, quantity: 2, properties: { _rebound_source: source } },
          { id: 11, quantity: 1 },
        ],
      });
      // Both adds are of the same product by the same visitor from the same source on the same day: counted once (§18).
      expect((await until(figures, (f) => f.add_to_carts >= 1)).add_to_carts).toBe(1);
      await screenshot(tab, 'widget-tracking');

      // The order the platform then reports carries the property: attributed to the ruleset.
      await t.admin('PUT', '/admin/v1/shops/shop/orders', [
        {
          id: 1,
          created_at: new Date().toISOString(),
          line_items: [
            {
              id: 1,
              product_id: 2,
              variant_id: 21,
              quantity: 2,
              price: '10.00',
              properties: [{ name: '_rebound_source', value: source }],
            },
            { id: 2, product_id: 1, variant_id: 11, quantity: 1, price: '10.00', properties: [] },
          ],
        },
      ]);
      expect(await figures()).toMatchObject({ orders: 1, revenue: 20 });
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  // The platform's cart cookie holds `<token>?key=<key>` since 2024
  // (shopify.dev/changelog/cart-cookie-value-now-includes-key-param);
  // storefront scripts read it as the cart's token (joelvh/shopify_hacks, shopify_hacks.js, readCookie("cart")).
  it(
    "sends the cart cookie's token with its events, never the " + "cart's key, so the cart's order gets the click",
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const { hostname } = new URL(siteUrl);
      await context.addCookies([
        { name: 'cart', value: 'c1-cart77token%3Fkey%3Dsecret55', domain: hostname, path: '/' },
      ]);
      const tab = await context.newPage();
      tab.setDefaultTimeout(10_000);
      const before = await figures();
      await tab.goto(`${siteUrl}/products/product-3`);
      await tab.waitForSelector('section.rbw li.rbw-card');
      await tab.click('section.rbw a.rbw-link >> nth=0');
      await tab.waitForURL(/\/products\/product-2$/);
      await until(figures, (f) => f.clicks === before.clicks + 1);

      const events = proxiedTracks.flatMap(
        (body) => (JSON.parse(body) as { events: Record<string, unknown>[] }).events,
      );
      expect(events.find((e) => e.type === 'click')).toMatchObject({ product_id: 2, cart_token: 'c1-cart77token' });
      expect(proxiedTracks.join('')).not.toContain('secret55');

      // An anonymous order of that cart, its line untagged: the click in the same cart gets it.
      await t.admin('PUT', '/admin/v1/shops/shop/orders', [
        {
          id: 2,
          created_at: new Date().toISOString(),
          cart_token: 'c1-cart77token',
          line_items: [{ id: 3, product_id: 2, variant_id: 21, quantity: 1, price: '7.00', properties: [] }],
        },
      ]);
      expect(await figures()).toMatchObject({ orders: before.orders + 1, revenue: before.revenue + 7 });
      await context.close();
    },
  );
});
