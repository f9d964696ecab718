import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_TOKEN, startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { launchChromium, listen, watchErrors } from '../helpers/browser.js';
import { productInput } from '../helpers/fixtures.js';
import { widgetInput } from '../helpers/widgets.js';

/** With REBOUND_DOC_SCREENSHOTS=1 the run also refreshes the screenshots docs/console.md shows. */
const DOC_IMAGES = process.env.REBOUND_DOC_SCREENSHOTS === '1' ? join(process.cwd(), 'docs', 'images') : null;

const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;

/** Every page of the console, as a merchant reaches it, and what shows it has loaded. */
const PAGES: { name: string; hash: string; ready: (page: Page) => Promise<unknown> }[] = [
  {
    name: 'rulesets',
    hash: '#/rulesets',
    ready: (p) => p.getByRole('link', { name: 'Running: Upsell test' }).waitFor(),
  },
  { name: 'editor', hash: '#/rulesets/1', ready: (p) => p.getByRole('list', { name: 'Trace' }).waitFor() },
  {
    name: 'widgets',
    hash: '#/widgets',
    ready: async (p) => {
      await p.getByRole('button', { name: 'Edit Product page' }).click();
      await p.locator('[data-testid="widget-preview"] li.rbw-card').first().waitFor();
    },
  },
  {
    name: 'catalog',
    hash: '#/catalog',
    ready: (p) =>
      p
        .getByRole('button', { name: /Item 1/ })
        .first()
        .waitFor(),
  },
  {
    name: 'product',
    hash: '#/catalog/1',
    ready: (p) => p.getByRole('heading', { name: 'Item 1', level: 1 }).waitFor(),
  },
  {
    name: 'insights',
    hash: '#/insights',
    ready: (p) => p.getByRole('heading', { name: /Attributed revenue/ }).waitFor(),
  },
  {
    name: 'experiments',
    hash: '#/experiments',
    ready: (p) => p.getByRole('table', { name: /Figures per arm/ }).waitFor(),
  },
  { name: 'campaigns', hash: '#/campaigns', ready: (p) => p.getByRole('heading', { name: 'New campaign' }).waitFor() },
  { name: 'billing', hash: '#/billing', ready: (p) => p.getByRole('heading', { name: 'Billing provider' }).waitFor() },
  {
    name: 'connection',
    hash: '#/connection',
    ready: (p) => p.getByRole('heading', { name: 'Connect your store' }).waitFor(),
  },
  { name: 'settings', hash: '#/settings', ready: (p) => p.locator('[data-setting="trending_window_days"]').waitFor() },
  { name: 'keys', hash: '#/keys', ready: (p) => p.getByRole('cell', { name: 'In use' }).first().waitFor() },
  { name: 'privacy', hash: '#/privacy', ready: (p) => p.getByText('No requests in the last 30 days.').waitFor() },
];

/**
 * Every page of the console passes axe-core's checks with no
 * serious or critical violation, at desktop and phone widths.
 */
describe.skipIf(!inject('chromium'))('accessibility of every console page', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    await t.createShop('a11y', { name: 'Outdoor Goods', currency: 'USD', timezone: 'Europe/Paris' });
    await t.admin(
      'PUT',
      '/admin/v1/shops/a11y/products',
      [1, 2, 3, 4, 5, 6].map((id) => productInput(id, { title: `Item ${id}` })),
    );
    const day = new Date(Date.now() - 86_400_000).toISOString();
    await t.admin('PUT', '/admin/v1/shops/a11y/orders', [
      {
        id: 1,
        created_at: day,
        line_items: [
          { product_id: 2, quantity: 3 },
          { product_id: 4, quantity: 1 },
        ],
      },
    ]);
    for (const name of ['Upsell', 'Challenger']) {
      await t.admin('POST', '/admin/v1/shops/a11y/rulesets', {
        name,
        rules: [
          {
            logic: [{ rules: [{ type: 'cart_subtotal', operator: 'greater_than', value: '50' }] }],
            output: [{ type: 'product', products: [{ product_id: 3 }] }],
          },
          { logic: [], output: [{ type: 'endpoint', endpoint: '/products/top_sellers?limit=4' }] },
        ],
      });
    }
    await t.admin('POST', '/admin/v1/shops/a11y/experiments', {
      name: 'Upsell test',
      ruleset_id: 1,
      arms: [
        { name: 'A', ruleset_id: 1, weight: 1 },
        { name: 'B', ruleset_id: 2, weight: 1 },
      ],
    });
    await t.admin('POST', '/admin/v1/shops/a11y/widgets', widgetInput());
    await t.admin('POST', '/admin/v1/shops/a11y/campaigns', { name: 'Winter winback', discount_code: 'COLD10' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  /** Violations a person would trip over: axe's serious and critical ones, each with the elements it found. */
  async function serious(page: Page): Promise<string[]> {
    const { violations } = await new AxeBuilder({ page }).analyze();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  }

  for (const [width, viewport] of Object.entries(WIDTHS)) {
    it(`has no serious or critical violation on any page at ${width} width`, async () => {
      // axe needs a page of a context of its own.
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const errors = watchErrors(page);
      await page.goto(`${base}/console/`);
      await page.getByLabel('Operator token or shop private key').waitFor();
      const found: Record<string, string[]> = { 'sign-in': await serious(page) };
      await shoot(page, 'sign-in', width);
      await page.getByLabel('Operator token or shop private key').fill(ADMIN_TOKEN);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Rulesets', level: 1 }).waitFor();
      for (const { name, hash, ready } of PAGES) {
        await page.goto(`${base}/console/${hash}`);
        await ready(page);
        found[name] = await serious(page);
        await shoot(page, name, width);
      }
      expect(Object.fromEntries(Object.entries(found).filter(([, v]) => v.length > 0))).toEqual({});
      expect(errors).toEqual([]);
      await context.close();
    }, 180_000);
  }
});

async function shoot(page: Page, name: string, width: string): Promise<void> {
  if (!DOC_IMAGES) return;
  mkdirSync(DOC_IMAGES, { recursive: true });
  await page.screenshot({ path: join(DOC_IMAGES, `console-${name}-${width}.png`), fullPage: width !== 'phone' });
}
