import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, listen, screenshot, watchErrors } from '../helpers/browser.js';
import { backends } from '../helpers/backends.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { productInput } from '../helpers/fixtures.js';

interface RenderedWidget {
  heading: string;
  titles: string[];
  cards: { title: string; alt: string; href: string; price: string; stock: string }[];
  labelled: boolean;
  listRole: string | null;
}

/** Every rendered widget on the page, by heading, as a visitor (and a screen reader) would read it. */
function rendered(page: Page): Promise<RenderedWidget[]> {
  return page.$$eval('section.rbw', (sections) =>
    sections.map((s) => {
      const heading = s.querySelector('h2');
      const cards = [...s.querySelectorAll('li.rbw-card')].map((li) => ({
        title: li.querySelector('.rbw-title')?.textContent ?? '',
        alt: li.querySelector('img')?.getAttribute('alt') ?? '',
        href: li.querySelector('a')?.getAttribute('href') ?? '',
        price: li.querySelector('.rbw-price')?.textContent ?? '',
        stock: li.querySelector('.rbw-stock')?.textContent ?? '',
      }));
      return {
        heading: heading?.textContent ?? '',
        titles: cards.map((c) => c.title),
        cards,
        // Labelled by its own heading: the id is on this section's heading and on no other element of the page.
        labelled:
          heading !== null &&
          s.getAttribute('aria-labelledby') === heading.id &&
          s.ownerDocument.querySelectorAll(`[id="${heading.id}"]`).length === 1,
        listRole: s.querySelector('ul')?.getAttribute('role') ?? null,
      };
    }),
  );
}

/** Waits until the page shows this many widgets. */
const widgetsShown = (page: Page, count: number) =>
  page.waitForFunction(
    // A function, not a string: the demo page's CSP forbids evaluating strings.
    (n) =>
      (
        globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
      ).document.querySelectorAll('section.rbw').length === n,
    count,
  );

/** Lines the browser itself logs for a failed or refused request; no script can keep them out of the console. */
const networkLog = (line: string) => /^console: Failed to load resource/.test(line);

describe.skipIf(!inject('chromium'))('the storefront widget in Chromium', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let key: string;
  let browser: Browser;
  let rulesetId: number;

  /** What the public API answers for a request the widget made, replayed from here. */
  const titlesFor = async (url: string) =>
    ((await (await fetch(url)).json()) as { data: { title: string }[] }).data.map((p) => p.title);

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    key = (await t.createShop('store', { currency: 'USD' })).public;
    const image = (id: number) => [
      {
        id: id * 10 + 7,
        src: `${base}/demo/images/product-${id}.svg`,
        alt: id === 5 ? 'A folded wool blanket' : null,
        width: 800,
        height: 800,
      },
    ];
    const products = Array.from({ length: 10 }, (_, i) =>
      productInput(i + 1, {
        title: `Item ${i + 1} ${['Tent', 'Stove', 'Boots', 'Lamp', 'Blanket'][i % 5]}`,
        images: image(i + 1),
      }),
    );
    expect((await t.admin('PUT', '/admin/v1/shops/store/products', products)).statusCode).toBe(200);
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    await t.admin('PUT', '/admin/v1/shops/store/orders', [
      {
        id: 1,
        created_at: day(1),
        line_items: [
          { product_id: 3, quantity: 9 },
          { product_id: 7, quantity: 2 },
        ],
      },
      {
        id: 2,
        created_at: day(2),
        line_items: [
          { product_id: 6, quantity: 4 },
          { product_id: 8, quantity: 1 },
        ],
      },
      {
        id: 3,
        created_at: day(5),
        line_items: [
          { product_id: 2, quantity: 3 },
          { product_id: 9, quantity: 5 },
        ],
      },
    ]);
    const ruleset = await t.admin('POST', '/admin/v1/shops/store/rulesets', {
      name: 'Boots upsell',
      rules: [
        {
          logic: [{ rules: [{ type: 'product', operator: 'contains_any', products: [{ product_id: 3 }] }] }],
          output: [{ type: 'product', products: [{ product_id: 5 }, { product_id: 1 }, { product_id: 4 }] }],
          exit_if_matched: true,
        },
        { logic: [], output: [{ type: 'endpoint', endpoint: '/products/top_sellers?limit=3' }] },
      ],
    });
    expect(ruleset.statusCode, ruleset.body).toBe(201);
    rulesetId = ruleset.json().ruleset.id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  it(
    "renders the demo page's widgets as the API answers them, reports " + 'one view and lists it as recently viewed',
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      const errors = watchErrors(page);
      const lists: string[] = [];
      const views: string[] = [];
      page.on('request', (request) => {
        const url = request.url();
        if (url.includes('/api/v1/analytics/event')) views.push(url);
        else if (url.includes('/api/v1/') && !url.includes('/api/v1/analytics/track')) lists.push(url);
      });

      await page.goto(`${base}/widget-demo?key=${key}`);
      await widgetsShown(page, 3);
      await page.waitForLoadState('networkidle');
      const uuid = await page.evaluate<string | null>('localStorage.getItem("rebound_uuid")');
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

      // Three tags name the page's product: it is reported once, as a CORS-simple POST.
      expect(views).toHaveLength(1);
      const view = new URL(views[0]!);
      expect(Object.fromEntries(view.searchParams)).toEqual({
        key,
        subject: 'user',
        verb: 'viewed',
        noun: 'product',
        shop_product_handle: 'product-3',
        uuid,
      });

      // Each widget shows what the public API answers for the request it made, in order.
      expect(lists).toHaveLength(3);
      const byPath = (part: string) => lists.find((u) => u.includes(part))!;
      for (const url of lists) expect(new URL(url).searchParams.get('uuid')).toBe(uuid);
      const widgets = await rendered(page);
      expect(widgets.map((w) => w.heading)).toEqual(['You may also like', 'Trending now', 'Recently viewed']);
      const [ruleset, trending, viewed] = widgets;
      expect(ruleset!.titles).toEqual(await titlesFor(byPath(`/api/v1/custom/id/${rulesetId}?`)));
      expect(ruleset!.titles).toEqual(['Item 5 Blanket', 'Item 1 Tent', 'Item 4 Lamp']);
      expect(trending!.titles).toEqual(await titlesFor(byPath('/api/v1/products/trending_products?')));
      expect(trending!.titles.length).toBe(4);
      // the page's product is the trending list's input, excluded
      expect(trending!.titles).not.toContain('Item 3 Boots');
      expect(viewed!.titles).toEqual(['Item 3 Boots']);
      expect(new URL(byPath('/api/v1/products/viewed?')).searchParams.get('shop_product_ids')).toBeNull();

      // Cards: alt text (the image's own, else empty: the title is in the
      // same link), a link by the URL template, a formatted price, stock.
      for (const widget of widgets) {
        expect(widget.labelled).toBe(true);
        expect(widget.listRole).toBe('list');
        for (const card of widget.cards) {
          expect(card.price).toMatch(/^\$\d+\.\d{2}/);
          expect(card.stock).toBe('In stock');
          expect(card.href).toMatch(new RegExp(`^${base}/widget-demo\\?key=${key}&product=product-\\d+$`));
        }
      }
      expect(ruleset!.cards[0]).toMatchObject({ alt: 'A folded wool blanket', price: '$10.00' });
      expect(ruleset!.cards[1]!.alt).toBe('');
      // Without data-target, each widget sits just before its own script tag.
      expect(
        await page.$eval('script[data-ruleset]', (s) => s.previousElementSibling?.querySelector('h2')?.textContent),
      ).toBe('You may also like');
      expect(await page.$$eval('style#rebound-widget-style', (s) => s.length)).toBe(1);
      expect(await page.evaluate<unknown>('window.ReboundWidget && window.ReboundWidget.version')).toMatch(
        /^\d+\.\d+\.\d+$/,
      );
      // Images load from the server's demo images (CSP img-src 'self').
      expect(
        await page.$$eval(
          'section.rbw img',
          (imgs) =>
            imgs.length > 0 &&
            imgs.every(
              (i) =>
                (i as unknown as { complete: boolean }).complete &&
                (i as unknown as { naturalWidth: number }).naturalWidth > 0,
            ),
        ),
      ).toBe(true);

      // The view reached the API: the viewed list for the page's UUID names the product.
      await expect
        .poll(() => titlesFor(`${base}/api/v1/products/viewed?key=${key}&uuid=${uuid}`), { timeout: 60_000 })
        .toEqual(['Item 3 Boots']);
      await screenshot(page, 'widget-demo');

      // After a reload, the same session still sees it; following a card adds that product first.
      await page.reload();
      await widgetsShown(page, 3);
      expect(await page.evaluate<string | null>('localStorage.getItem("rebound_uuid")')).toBe(uuid);
      expect((await rendered(page))[2]!.titles).toEqual(['Item 3 Boots']);
      await page.click('section.rbw >> nth=0 >> a.rbw-link >> nth=0');
      await page.waitForURL(/product=product-5$/);
      await widgetsShown(page, 3);
      expect(await page.textContent('h1')).toBe('Item 5 Blanket');
      expect((await rendered(page))[2]!.titles).toEqual(['Item 5 Blanket', 'Item 3 Boots']);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('lays the cards out in two columns at phone width without horizontal scrolling', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const errors = watchErrors(page);
    await page.goto(`${base}/widget-demo?key=${key}`);
    await widgetsShown(page, 3);
    const layout = await page.evaluate<{ tops: number[]; lefts: number[]; widths: number[]; scroll: number }>(`(() => {
      const rects = [...document.querySelectorAll('section.rbw')[1].querySelectorAll('li.rbw-card')]
        .map((li) => li.getBoundingClientRect());
      return {
        tops: rects.map((r) => Math.round(r.top)),
        lefts: rects.map((r) => Math.round(r.left)),
        widths: rects.map((r) => Math.round(r.width)),
        scroll: document.documentElement.scrollWidth,
      };
    })()`);
    expect(layout.scroll).toBeLessThanOrEqual(390);
    expect(layout.tops).toHaveLength(4);
    expect(layout.tops[0]).toBe(layout.tops[1]);
    expect(layout.tops[2]).toBeGreaterThan(layout.tops[0]!);
    expect(layout.lefts[2]).toBe(layout.lefts[0]);
    for (const width of layout.widths) expect(width).toBeGreaterThan(120);
    await screenshot(page, 'widget-demo-phone');
    expect(errors).toEqual([]);
    await context.close();
  });

  describe('on another site, when the API fails', () => {
    let site: Server;
    let siteUrl: string;
    let hanging: TcpServer;
    const sockets = new Set<Socket>();

    beforeAll(async () => {
      // An API that accepts connections and never answers: the widget must give up on its own.
      hanging = createTcpServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
      const hangingApi = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
      // A port nobody listens on: the connection is refused.
      const probe = createTcpServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const closedApi = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
      await new Promise((resolve) => probe.close(resolve));
      const tag = (attrs: string) => `<script src="${base}/widget.js" data-key="${key}" ${attrs} async></script>`;
      const html =
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>' +
        '<body><h1>A storefront</h1>' +
        '<div id="down"><p>placeholder down</p></div><div id="slow"><p>placeholder slow</p></div>' +
        '<div id="closed"><p>placeholder closed</p></div><div id="refused"><p>placeholder refused</p></div>' +
        '<div id="fine"><p>placeholder fine</p></div><div id="lenient"><p>placeholder lenient</p></div>' +
        '<div id="aliased"><p>placeholder aliased</p></div>' +
        tag(
          'data-api="http://127.0.0.1:9" data-endpoint="trending_products" ' +
            'data-product-handle="product-1" data-target="#down"',
        ) +
        tag(`data-api="${hangingApi}" data-endpoint="/products/top_sellers?limit=2" data-target="#slow"`) +
        tag(`data-api="${closedApi}" data-ruleset="${rulesetId}" data-product-ids="3" data-target="#closed"`) +
        `<script src="${base}/widget.js" data-key="rb_pub_unknownKey0000000000000000000000" ` +
        'data-endpoint="trending_products" data-target="#refused" async></script>' +
        tag(`data-ruleset="${rulesetId + 1000}"`) +
        tag('data-endpoint="/products/trending_products?limit=2" data-target="#fine" data-title="Popular"') +
        // The endpoint's own products, named the platform's way, replace the page's.
        tag(
          'data-endpoint="/products/trending_products?limit=2&shopify_product_ids=1" data-target="#aliased" ' +
            'data-title="Aliased" data-product-ids="2"',
        ) +
        // A theme's Liquid can print a subtotal with a thousands separator, or nothing usable as an id.
        tag(
          'data-endpoint="/products/trending_products?limit=2" data-target="#lenient" data-title="Lenient" ' +
            'data-cart-subtotal="1,234.50" data-product-ids="{{ product.id }}" data-cart-item-count="3"',
        ) +
        '</body></html>';
      site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    });

    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hanging?.close(resolve));
      await new Promise((resolve) => site?.close(resolve));
    });

    it(
      'renders nothing for an unreachable, silent, refusing or erroring ' +
        'API, throws nothing, and still renders the working tag',
      async () => {
        const context = await browser.newContext();
        const page = await context.newPage();
        page.setDefaultTimeout(60_000);
        const errors = watchErrors(page);
        const warnings: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'warning') warnings.push(message.text());
        });
        const requested: string[] = [];
        page.on('request', (request) => requested.push(request.url()));
        const aborted = page.waitForEvent('requestfailed', {
          predicate: (r) => r.url().includes('top_sellers'),
          timeout: 60_000,
        });
        await page.goto(siteUrl);
        // The working tag, from another origin, defaults its API to the script's own origin.
        await page.waitForSelector('#fine section.rbw');
        const fine = (await rendered(page)).find((w) => w.heading === 'Popular')!;
        expect(fine.titles).toEqual(await titlesFor(`${base}/api/v1/products/trending_products?key=${key}&limit=2`));
        expect(fine.titles).toHaveLength(2);
        // The silent API is abandoned after the widget's timeout.
        await aborted;
        await page.waitForLoadState('networkidle');
        // Attributes the API would refuse are left out, each named once; the widget still shows its list.
        const lenient = (await rendered(page)).find((w) => w.heading === 'Lenient')!;
        expect(lenient.titles).toEqual(fine.titles);
        const sent = new URL(requested.find((url) => url.includes('cart_item_count'))!).searchParams;
        expect([sent.get('cart_item_count'), sent.get('cart_subtotal'), sent.get('shop_product_ids')]).toEqual([
          '3',
          null,
          null,
        ]);
        expect(warnings.filter((w) => w.startsWith('Rebound widget:'))).toEqual([
          'Rebound widget: data-product-ids="{{product.id}}" is not a comma list of ids; it is left out.',
          'Rebound widget: data-cart-subtotal="1,234.50" is not a decimal amount such as 1234.50; it is left out.',
        ]);
        const aliased = (await rendered(page)).find((w) => w.heading === 'Aliased')!;
        expect(aliased.titles).toEqual(
          await titlesFor(`${base}/api/v1/products/trending_products?key=${key}&limit=2&shop_product_ids=1`),
        );
        expect(await page.$$eval('section.rbw', (s) => s.length)).toBe(3);
        expect(await page.$$eval('.rbw-root', (s) => s.length)).toBe(0);
        for (const id of ['down', 'slow', 'closed', 'refused'])
          expect(await page.innerHTML(`#${id}`)).toBe(`<p>placeholder ${id}</p>`);
        expect(errors.filter((line) => !networkLog(line))).toEqual([]);
        await context.close();
      },
    );
  });
});
