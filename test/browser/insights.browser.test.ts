import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StoreEvent } from '../../src/domain/events.js';
import { ADMIN_TOKEN, startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { launchChromium, listen, screenshot, signInToConsole } from '../helpers/browser.js';
import { productInput } from '../helpers/fixtures.js';

const U = '00000000-0000-4000-8000-000000000001';
const view = (handle: string, at: number): StoreEvent => ({
  uuid: U,
  customer_id: null,
  subject: 'user',
  verb: 'viewed',
  noun: 'product',
  handle,
  subject_email: null,
  theme_id: null,
  created_at: at,
});

/** The insights page says only what its figures support, with units, and marks today as the partial day it is. */
describe.skipIf(!inject('chromium'))('insights in the console', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    const { id } = await t.createShop('ins', { name: 'Insights shop', currency: 'USD' });
    await t.admin(
      'PUT',
      '/admin/v1/shops/ins/products',
      [1, 2, 3].map((n) => productInput(n, { title: `Item ${n}` })),
    );
    const hoursAgo = (h: number) => Date.now() - h * 3_600_000;
    // Item 1: viewed 100 times, bought 4 times (4% conversion).
    // Item 2: imported a minute ago, never viewed, sold twice.
    await t.services.events.importEvents(id, [
      ...Array.from({ length: 100 }, (_, i) => view('product-1', hoursAgo(30 + (i % 20)))),
      view('product-3', hoursAgo(40)),
    ]);
    const order = (n: number, product: number) => ({
      id: n,
      created_at: new Date(hoursAgo(26)).toISOString(),
      line_items: [{ product_id: product, quantity: 1 }],
    });
    await t.admin('PUT', '/admin/v1/shops/ins/orders', [
      order(1, 1),
      order(2, 1),
      order(3, 1),
      order(4, 1),
      order(5, 2),
      order(6, 2),
    ]);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  it(
    'warns about conversion only when it reads above 100%, charts ' +
      'viewed products only, with units, and today as partial',
    async () => {
      const { page, errors } = await signInToConsole(browser, base, ADMIN_TOKEN);
      await page.getByRole('link', { name: 'Insights' }).click();
      const conversion = page.getByRole('figure', { name: /Estimated conversion of viewed products/ });
      await conversion.waitFor();

      expect(await page.getByText(/above 100%/).count()).toBe(0);
      const rows = await conversion.locator('tbody tr').allTextContents();
      expect(rows.some((r) => r.startsWith('Item 1'))).toBe(true);
      // Never viewed: no conversion to show, whatever it sold.
      expect(rows.some((r) => r.startsWith('Item 2'))).toBe(false);

      // Axes carry their units.
      const ticks = async (name: RegExp) =>
        (
          await page.getByRole('figure', { name }).locator('.recharts-cartesian-axis-tick-value').allTextContents()
        ).join(' ');
      expect(await ticks(/Estimated conversion/)).toMatch(/\d%/);
      expect(await ticks(/Top sellers/)).toMatch(/\d units/);
      expect(await page.getByRole('figure', { name: /Events per day/ }).textContent()).toContain('events a day');

      // Today is marked as partial in the chart's data table.
      const days = await page
        .getByRole('figure', { name: /Events per day/ })
        .locator('tbody tr')
        .allTextContents();
      expect(days.at(-1)).toContain('(today, so far)');
      expect(days.slice(0, -1).some((d) => d.includes('today'))).toBe(false);
      await screenshot(page, 'console-insights');
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
