import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { ADMIN_TOKEN, startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { launchChromium, listen, screenshot, signInToConsole, watchErrors } from '../helpers/browser.js';
import { productInput } from '../helpers/fixtures.js';
import { widgetInput } from '../helpers/widgets.js';

/** A product card as a shopper sees it: the parts the design decides, in order. */
interface Card {
  title: string;
  vendor: string | null;
  price: string | null;
  compare: string | null;
  button: boolean;
}
interface Rendered {
  className: string;
  heading: string;
  style: string;
  cards: Card[];
}

/** The little of the DOM the page-side functions read (the test project has no DOM types). */
interface Node {
  textContent: string | null;
  className: string;
  style: { cssText: string };
  firstChild: Node | null;
  querySelector(selector: string): Node | null;
  querySelectorAll(selector: string): ArrayLike<Node>;
}
type Doc = { document: Node };

/** The widget inside `root`, read the same way wherever it is rendered. */
function readWidget(page: Page, root: string): Promise<Rendered> {
  return page.$eval(`${root} section.rbw`, (section) => ({
    className: section.className,
    heading: section.querySelector('h2')?.textContent ?? '',
    style: (section as unknown as Node).style.cssText,
    cards: [...section.querySelectorAll('li.rbw-card')].map((li) => ({
      title: li.querySelector('.rbw-title')?.textContent ?? '',
      vendor: li.querySelector('.rbw-vendor')?.textContent ?? null,
      price: li.querySelector('.rbw-price')?.firstChild?.textContent ?? null,
      compare: li.querySelector('.rbw-compare')?.textContent ?? null,
      button: li.querySelector('button.rbw-add') !== null,
    })),
  }));
}

/** Widgets designed in the console, previewed there, and shown on a storefront page from the stored design. */
describe.skipIf(!inject('chromium'))('widgets designed in the console', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let key: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    key = (await t.createShop('wshop', { name: 'Widget Shop', currency: 'USD' })).public;
    const products = Array.from({ length: 8 }, (_, i) =>
      productInput(i + 1, {
        title: `Item ${i + 1}`,
        vendor: `Maker ${i + 1}`,
        variants: [
          {
            id: (i + 1) * 100,
            price: `${10 + i}.00`,
            compare_at_price: i % 2 === 0 ? `${20 + i}.00` : null,
            inventory_quantity: 5,
          },
        ],
      }),
    );
    expect((await t.admin('PUT', '/admin/v1/shops/wshop/products', products)).statusCode).toBe(200);
    const day = new Date(Date.now() - 86_400_000).toISOString();
    await t.admin('PUT', '/admin/v1/shops/wshop/orders', [
      {
        id: 1,
        created_at: day,
        line_items: [
          { product_id: 3, quantity: 9 },
          { product_id: 5, quantity: 4 },
          { product_id: 7, quantity: 2 },
        ],
      },
    ]);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  const signedIn = () => signInToConsole(browser, base, ADMIN_TOKEN);

  it(
    'creates a widget with a live preview and a snippet, and the ' +
      'storefront renders the same cards from the stored design',
    async () => {
      const { page, errors } = await signedIn();
      await page.getByRole('link', { name: 'Widgets' }).click();
      await page.getByRole('heading', { name: 'Widgets', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Create a widget' }).click();
      await page.getByLabel('Name (only you see it)').fill('Product page best sellers');
      await page.getByLabel('Heading shoppers see').fill('Our best sellers');
      await page.getByLabel('Number of products shown (1–12)').fill('3');
      await page.getByLabel('Carousel (scrolls sideways)').check();
      await page.getByLabel('Brand (vendor)').check();
      await page.getByLabel('Add to cart button').check();
      // The preview follows the form: three cards of the shop's best sellers, under the new heading.
      await page.waitForFunction(() => {
        const section = (globalThis as unknown as Doc).document.querySelector(
          '[data-testid="widget-preview"] section.rbw',
        );
        return (
          section?.querySelector('h2')?.textContent === 'Our best sellers' &&
          section.querySelectorAll('li.rbw-card').length === 3
        );
      });
      await page.getByRole('button', { name: 'Create the widget' }).click();
      const snippet = page.getByTestId('widget-snippet');
      await snippet.waitFor();
      const stored = (await t.admin('GET', '/admin/v1/shops/wshop/widgets')).json().data[0];
      expect(stored).toMatchObject({
        name: 'Product page best sellers',
        title: 'Our best sellers',
        layout: 'carousel',
        cards: 3,
      });
      expect(await snippet.textContent()).toContain(`<div data-rebound-widget="${stored.id}"`);
      expect(await snippet.textContent()).toContain(`${base}/widget.js?key=YOUR_PUBLIC_KEY`);
      const preview = await readWidget(page, '[data-testid="widget-preview"]');
      await screenshot(page, 'console-widgets');

      // The storefront: only the snippet, with the shop's key; the design comes from the server.
      const storefront = await browser.newPage();
      storefront.setDefaultTimeout(20_000);
      const shopErrors = watchErrors(storefront);
      const tracked: string[] = [];
      storefront.on('request', (r) => {
        if (r.url().includes('/api/v1/analytics/track')) tracked.push(r.method());
      });
      const html = (await snippet.textContent())!.replace('YOUR_PUBLIC_KEY', key);
      // Served from another origin, as a storefront is: the design and the lists are cross-origin requests.
      // A real server on loopback: Chromium keeps a page it cannot place (a routed one) from calling loopback.
      const shop = createServer((_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(`<!doctype html><html lang="en"><body><main>${html}</main></body></html>`),
      );
      await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
      onTestFinished(() => new Promise<void>((resolve) => shop.close(() => resolve())));
      const shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
      expect(shopOrigin).not.toBe(base);
      await storefront.goto(`${shopOrigin}/shop/products/item-1`);
      await storefront.waitForFunction(
        () => (globalThis as unknown as Doc).document.querySelectorAll('[data-rebound-widget] li.rbw-card').length > 0,
      );
      const live = await readWidget(storefront, '[data-rebound-widget]');
      expect(live).toEqual(preview);
      expect(live.cards.map((c) => c.title)).toEqual(['Item 3', 'Item 5', 'Item 7']);
      expect(live.className).toContain('rbw-carousel');
      expect(live.cards[0]).toMatchObject({ vendor: 'Maker 3', button: true });

      // Its impression is counted for the widget as well as for the list (a cross-origin beacon, whose body the
      // browser does not show the test: the count is read where it lands).
      await expect.poll(() => tracked.length, { timeout: 20_000 }).toBeGreaterThan(0);
      await expect
        .poll(async () => (await t.admin('GET', '/admin/v1/shops/wshop/attribution')).json().widgets[0] ?? null, {
          timeout: 20_000,
        })
        .toMatchObject({ widget_id: stored.id, impressions: 1 });
      const summary = (await t.admin('GET', '/admin/v1/shops/wshop/attribution')).json();
      expect(summary.lists.find((l: { list: string }) => l.list === 'top_sellers')?.impressions).toBe(1);
      expect(summary.totals.impressions).toBe(1);

      // A change saved in the console shows on the storefront's next load, with no edit of the page.
      await page.getByLabel('Heading shoppers see').fill('Loved by our customers');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Saved.').waitFor();
      await storefront.reload();
      await storefront.waitForFunction(
        () =>
          (globalThis as unknown as Doc).document.querySelector('[data-rebound-widget] h2')?.textContent ===
          'Loved by our customers',
      );
      expect(errors).toEqual([]);
      expect(shopErrors.filter((e) => !e.startsWith('console: Failed to load resource'))).toEqual([]);
      await storefront.close();
      await page.close();
    },
  );

  it("previews a list of the page's products on a product the merchant picks, as that page would show it", async () => {
    const { page, errors } = await signedIn();
    await page.getByRole('link', { name: 'Widgets' }).click();
    await page.getByRole('button', { name: 'Create a widget' }).click();
    await page.getByLabel('Name (only you see it)').fill('Similar on product pages');
    await page.getByLabel('Products from').selectOption({ label: 'Similar products' });
    // The heading left as the old list's name follows the new one.
    expect(await page.getByLabel('Heading shoppers see').inputValue()).toBe('Similar products');
    // A cleared number field takes what is typed, digit by digit.
    const shown = page.getByLabel('Number of products shown (1–12)');
    await shown.fill('');
    await shown.pressSequentially('8');
    expect(await shown.inputValue()).toBe('8');
    await shown.fill('');
    await shown.pressSequentially('4');
    // Similar to what? The page sends its product; until one is picked the preview says what to choose.
    await page.locator('.widget-preview .error', { hasText: 'choose one under “Products on the page”' }).waitFor();
    await page.getByLabel('Products on the page: add a product', { exact: true }).fill('Item 3');
    await page.getByRole('button', { name: /^Add Item 3/ }).click();
    await page.locator('[data-testid="widget-preview"] li.rbw-card').first().waitFor();
    const cards = await readWidget(page, '[data-testid="widget-preview"]');
    const res = await fetch(`${base}/api/v1/products/similar_products?key=${key}&shop_product_ids=3&limit=8`);
    const expected = ((await res.json()) as { data: { title: string }[] }).data.map((p) => p.title).slice(0, 4);
    expect(expected.length).toBeGreaterThan(0);
    expect(cards.cards.map((c) => c.title)).toEqual(expected);
    expect(errors.filter((e) => !e.includes('400'))).toEqual([]);
    await page.close();
  });

  it('asks before disabling a ruleset a widget shows, naming the widget', async () => {
    const ruleset = await t.admin('POST', '/admin/v1/shops/wshop/rulesets', {
      name: 'Shown by a widget',
      rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 2 }] }] }],
    });
    const id = ruleset.json().ruleset.id;
    const widget = await t.admin('POST', '/admin/v1/shops/wshop/widgets', {
      ...widgetInput({ source: { ruleset_id: id } }),
      name: 'Cart drawer picks',
    });
    expect(widget.statusCode, widget.body).toBe(201);
    const { page, errors } = await signedIn();
    await page.getByRole('link', { name: 'Shown by a widget' }).click();
    const enabled = page.getByLabel('Enabled', { exact: true });
    await enabled.waitFor();
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await enabled.click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toContain('“Cart drawer picks”');
    expect(await enabled.isChecked()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
