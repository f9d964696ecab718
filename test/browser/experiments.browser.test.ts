import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_TOKEN, startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { launchChromium, listen, screenshot, signInToConsole } from '../helpers/browser.js';
import { productInput } from '../helpers/fixtures.js';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The console's experiments page and attributed revenue, in Chromium against the real server. */
describe.skipIf(!inject('chromium'))('experiments in the console', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let key: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    key = (await t.createShop('outfitters', { name: 'Outfitters', currency: 'USD' })).public;
    await t.admin('PATCH', '/admin/v1/shops/outfitters', { settings: { rate_limit_public_per_minute: 1_000_000 } });
    await t.admin(
      'PUT',
      '/admin/v1/shops/outfitters/products',
      [1, 2, 3, 4].map((id) => productInput(id, { title: `Item ${id}` })),
    );
    for (const [name, products] of [
      ['Base upsell', [1, 2]],
      ['Challenger', [3, 4]],
    ] as const) {
      await t.admin('POST', '/admin/v1/shops/outfitters/rulesets', {
        name,
        rules: [{ logic: [], output: [{ type: 'product', products: products.map((p) => ({ product_id: p })) }] }],
      });
    }
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  const signedIn = () => signInToConsole(browser, base, ADMIN_TOKEN);

  /**
   * Visitors of ruleset 1 through the public API: impressions, some clicks, and orders tagged with the served source.
   */
  async function traffic(from: number, to: number) {
    const orders = [];
    const events = [];
    for (let n = from; n < to; n++) {
      const source = (await t.app.inject(`/api/v1/custom/id/1?key=${key}&uuid=${uuid(n)}`)).json().metadata
        .source as string;
      events.push({ type: 'impression', uuid: uuid(n), source });
      if (n % 4 === 0) events.push({ type: 'click', uuid: uuid(n), source, product_id: 1 });
      if (n % (source.endsWith(':B') ? 10 : 20) === 0) {
        orders.push({
          id: n,
          created_at: new Date().toISOString(),
          line_items: [
            { product_id: 1, quantity: 1, price: '25.00', properties: [{ name: '_rebound_source', value: source }] },
          ],
        });
      }
    }
    for (let i = 0; i < events.length; i += 100)
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/analytics/track?key=${key}`,
        payload: { events: events.slice(i, i + 100) },
      });
    await t.admin('PUT', '/admin/v1/shops/outfitters/orders', orders);
  }

  it('starts an experiment, shows each arm with intervals and a chart, and stops it with a winner', async () => {
    const { page, errors } = await signedIn();
    await page.getByRole('link', { name: 'Experiments' }).click();
    await page.getByRole('heading', { name: 'Experiments', level: 1 }).waitFor();
    expect(await page.title()).toContain('Experiments');
    await page.getByRole('button', { name: 'New experiment' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Upsell against challenger');
    await page.getByLabel('Arm 2 name').fill('B');
    await page.getByRole('button', { name: 'Start the experiment' }).click();
    await page.getByRole('heading', { name: 'Upsell against challenger' }).waitFor();
    expect((await t.admin('GET', '/admin/v1/shops/outfitters/experiments')).json().data[0]).toMatchObject({
      ruleset_id: 1,
      status: 'running',
      arms: [
        { name: 'A', ruleset_id: 1 },
        { name: 'B', ruleset_id: 2 },
      ],
    });

    await traffic(1, 401);
    await page.reload();
    const table = page.getByRole('table', { name: /Figures per arm/ });
    await table.waitFor();
    const rows = await table.locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^A#1\d+/);
    expect(rows[1]).toMatch(/%\s*\(\d+\.\d+%–\d+\.\d+%\)/);
    await page.getByRole('figure', { name: 'Conversion over time (cumulative, %)' }).waitFor();
    await screenshot(page, 'console-experiment-running');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByLabel('Winner').selectOption('B');
    await page.getByRole('button', { name: 'Stop the experiment' }).click();
    await page.getByText(/Stopped .*winner: B/).waitFor();
    expect((await t.app.inject(`/api/v1/custom/id/1?key=${key}&uuid=${uuid(1)}`)).json().metadata.source).toBe(
      'ruleset:2:v1',
    );
    await screenshot(page, 'console-experiment-stopped');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows attributed revenue per ruleset on the insights page', async () => {
    const { page, errors } = await signedIn();
    await page.getByRole('link', { name: 'Insights' }).click();
    const heading = page.getByRole('heading', { name: /Attributed revenue, last 30 days/ });
    await heading.waitFor();
    const summary = (await t.admin('GET', '/admin/v1/shops/outfitters/attribution?days=30')).json();
    expect(summary.totals.revenue).toBeGreaterThan(0);
    expect(await heading.textContent()).toContain(`$${summary.totals.revenue.toFixed(2)}`);
    await page
      .getByRole('figure', { name: /Attributed revenue per ruleset/ })
      .locator('summary')
      .click();
    const cells = await page
      .getByRole('figure', { name: /Attributed revenue per ruleset/ })
      .locator('tbody tr')
      .allTextContents();
    expect(cells.some((c) => c.startsWith('Base upsell (#1)'))).toBe(true);
    expect(cells.some((c) => c.startsWith('Challenger (#2)'))).toBe(true);
    await screenshot(page, 'console-insights-attribution');
    expect(errors).toEqual([]);
    await page.close();
  });
});
