import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_TOKEN, startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { launchChromium, listen, signInToConsole } from '../helpers/browser.js';
import { productInput } from '../helpers/fixtures.js';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Experiments a merchant can start and stop without breaking the storefront or reading noise as a result. */
describe.skipIf(!inject('chromium'))('experiments, safely, in the console', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let key: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    key = (await t.createShop('safe', { name: 'Safe', currency: 'USD' })).public;
    await t.admin(
      'PUT',
      '/admin/v1/shops/safe/products',
      [1, 2, 3, 4].map((id) => productInput(id, { title: `Item ${id}` })),
    );
    for (const name of ['Base upsell', 'Challenger', 'Third idea']) {
      await t.admin('POST', '/admin/v1/shops/safe/rulesets', {
        name,
        rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 1 }] }] }],
      });
    }
    const running = await t.admin('POST', '/admin/v1/shops/safe/experiments', {
      name: 'Upsell test',
      ruleset_id: 1,
      arms: [
        { name: 'A', ruleset_id: 1, weight: 1 },
        { name: 'B', ruleset_id: 2, weight: 1 },
      ],
    });
    expect(running.statusCode, running.body).toBe(201);
    // A few visitors and clicks, no orders: nothing to conclude yet.
    const events = [];
    for (let n = 1; n <= 12; n++) {
      const source = (await t.app.inject(`/api/v1/custom/id/1?key=${key}&uuid=${uuid(n)}`)).json().metadata
        .source as string;
      events.push(
        { type: 'impression', uuid: uuid(n), source },
        { type: 'click', uuid: uuid(n), source, product_id: 1 },
      );
    }
    await t.app.inject({ method: 'POST', url: `/api/v1/analytics/track?key=${key}`, payload: { events } });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  const signedIn = () => signInToConsole(browser, base, ADMIN_TOKEN);

  it(
    'lists each ruleset with its experiment and earnings, and the ' +
      'editor warns about the running test and asks before disabling it',
    async () => {
      const { page, errors } = await signedIn();
      const row = page.getByRole('row', { name: /Base upsell/ });
      await row.getByRole('link', { name: 'Running: Upsell test' }).waitFor();
      // The earnings column fills in after the rows (its own request): waited for, not read at once.
      await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('Nothing yet');
      expect(await page.getByRole('row', { name: /Third idea/ }).textContent()).toContain('—');

      await row.getByRole('link', { name: 'Base upsell' }).click();
      await page.getByRole('note').filter({ hasText: 'running experiment' }).waitFor();
      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await page.getByLabel('Enabled', { exact: true }).click();
      await expect.poll(() => asked.length).toBe(1);
      expect(asked[0]).toContain('answers no products');
      expect(await page.getByLabel('Enabled', { exact: true }).isChecked()).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it(
    'offers only rulesets not under test, arm A follows the pick, and ' +
      'hides intervals and "beats" until there is data',
    async () => {
      const { page, errors } = await signedIn();
      await page.getByRole('link', { name: 'Experiments' }).click();
      await page.getByRole('heading', { name: 'Upsell test' }).waitFor();
      const row = page.getByRole('row', { name: /^B/ });
      expect(await row.textContent()).toContain('Too early');
      expect(await row.textContent()).not.toMatch(/\(\d/);
      await page.getByRole('note').filter({ hasText: 'Too early to compare' }).waitFor();

      await page.getByRole('button', { name: 'New experiment' }).click();
      const under = page.getByLabel(/Ruleset under test/);
      expect(await under.inputValue()).toBe('2');
      expect(await under.locator('option[value="1"]').isDisabled()).toBe(true);
      expect(await page.getByLabel('Arm 1 served by', { exact: true }).inputValue()).toBe('2');
      await under.selectOption('3');
      expect(await page.getByLabel('Arm 1 served by', { exact: true }).inputValue()).toBe('3');
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it('asks before stopping, saying what visitors get from then on', async () => {
    const { page, errors } = await signedIn();
    await page.getByRole('link', { name: 'Experiments' }).click();
    await page.getByRole('heading', { name: 'Upsell test' }).waitFor();
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByLabel('Winner').selectOption('B');
    await page.getByRole('button', { name: 'Stop the experiment' }).click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toContain('ruleset #2 serves every visitor of ruleset #1');
    expect(asked[0]).toContain('cannot be restarted');
    expect((await t.admin('GET', '/admin/v1/shops/safe/experiments/1')).json().experiment.status).toBe('running');
    expect(errors).toEqual([]);
    await page.close();
  });
});
