import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { launchChromium, listen, watchErrors } from '../helpers/browser.js';

/** The console warns while customer lists are unsigned, and turns signatures on with a shop's own key. */
describe.skipIf(!inject('chromium'))('customer signature notice in Chromium', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let privateKey: string;

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    privateKey = (await t.createShop('unsigned', { name: 'Unsigned' })).private;
    // The operator's own settings, which the shop's key must be able to send back unchanged.
    expect((await t.admin('PATCH', '/admin/v1/shops/unsigned', { settings: { rate_limit_public_per_minute: 900 } })).statusCode).toBe(200);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  async function signIn(): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${base}/console/`);
    await page.getByLabel('Operator token or shop private key').fill(privateKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Rulesets' }).waitFor();
    return { page, errors };
  }

  it('shows the notice while signatures are off, turns them on, and stays away afterwards', async () => {
    const first = await signIn();
    const notice = first.page.getByRole('region', { name: 'Customer signatures' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Customer lists are not signed');
    await notice.getByRole('button', { name: 'Require customer signatures' }).click();
    await notice.waitFor({ state: 'detached' });

    const shop = (await t.admin('GET', '/admin/v1/shops/unsigned')).json().shop;
    expect(shop.settings).toMatchObject({ require_customer_signature: true, rate_limit_public_per_minute: 900 });
    expect(first.errors).toEqual([]);
    await first.page.close();

    const again = await signIn();
    await again.page.getByRole('heading', { name: 'Rulesets' }).waitFor();
    expect(await again.page.getByRole('region', { name: 'Customer signatures' }).count()).toBe(0);
    await again.page.close();
  });
});
