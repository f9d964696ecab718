import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_TOKEN, startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { launchChromium, listen, screenshot, signInToConsole } from '../helpers/browser.js';
import { PLATFORM_ENV, PLATFORM_WEBHOOK_SECRET } from '../helpers/fake-platform/connect.js';
import { FakePlatform } from '../helpers/fake-platform/server.js';

/**
 * The Connection page: connect the shop to its platform (a fake speaking
 * the GraphQL Admin API), watch the sync, see failures, disconnect.
 */
describe.skipIf(!inject('chromium'))('the Connection page', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let fake: FakePlatform;

  beforeAll(async () => {
    t = await startApp(backend, PLATFORM_ENV);
    base = await listen(t.app);
    await t.createShop('conn', { name: 'Connected shop' });
    fake = await new FakePlatform({ shape: { products: 6, collections: 2, customers: 3, orders: 5 } }).start();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await fake?.stop();
    await t?.close();
    await backend.cleanup();
  });

  const signedIn = () => signInToConsole(browser, base, ADMIN_TOKEN);

  it(
    'connects, shows the sync finishing with its counts, shows a ' +
      'refused token as a failure, and disconnects after asking',
    async () => {
      const { page, errors } = await signedIn();
      await page.getByRole('link', { name: 'Connection' }).click();
      await page.getByText('Not connected yet.').waitFor();
      expect(await page.getByRole('note').filter({ hasText: 'cannot store access tokens' }).count()).toBe(0);
      await page.getByLabel('Store address').fill('acme.myshopify.com');
      await page.getByLabel(/Admin API access token/).fill(fake.token);
      await page.getByLabel(/App client secret/).fill(PLATFORM_WEBHOOK_SECRET);
      await page.getByText('Advanced').click();
      await page.getByLabel(/API address/).fill(fake.apiUrl);
      await page.getByRole('button', { name: 'Connect', exact: true }).click();

      const status = page.getByTestId('connection-status');
      await status.getByText('Full sync: Finished').waitFor();
      const text = await status.textContent();
      expect(text).toContain('Connected: changes in your store arrive here by themselves.');
      expect(text).toContain('6 products, 2 collections, 3 customers, 5 orders');
      expect(text).toContain('Stored (never shown)');
      expect(text).not.toContain(fake.token);
      await screenshot(page, 'console-connection');

      // The store refuses the token: the next check fails, and the page says so with the platform's reason.
      fake.token = 'shpat_rotated_token_0000000000000000';
      await page.getByRole('button', { name: 'Check for changes now' }).click();
      await status.getByText('Check for changes: Failed').waitFor();
      expect(await page.getByRole('alert').filter({ hasText: 'The last sync failed' }).count()).toBe(1);
      // Its updates were subscribed by the first sync: changes still arrive, and the page says what is missing.
      await status.getByText(/^Connected, but the last sync failed: changes still arrive/).waitFor();

      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.accept();
      });
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await status.getByText(/^Disconnected: nothing arrives/).waitFor();
      expect(asked[0]).toContain('stay');
      expect((await t.admin('GET', '/admin/v1/shops/conn/platform')).json().platform.status).toBe('disconnected');

      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it('does not call a store connected whose first sync failed', async () => {
    const { private: key } = await t.createShop('conn-refused', { name: 'Refused shop' });
    const { page, errors } = await signInToConsole(browser, base, key);
    await page.getByRole('link', { name: 'Connection' }).click();
    // The admin's own address names the store in its path.
    await page.getByLabel('Store address').fill('https://admin.shopify.com/store/acme');
    await page.getByLabel(/Admin API access token/).fill('shpat_refused_token_000000000000000');
    await page.getByText('Advanced').click();
    await page.getByLabel(/API address/).fill(fake.apiUrl);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const status = page.getByTestId('connection-status');
    await status.getByText(/^Not working yet: the first sync failed, so nothing arrives/).waitFor();
    expect(await status.getByRole('heading', { name: 'acme.myshopify.com' }).count()).toBe(1);
    expect(await status.getByText(/^Connected/).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** A server without REBOUND_SECRET_KEY cannot keep a token: the pages say so before anything is typed. */
describe.skipIf(!inject('chromium'))('connecting on a server that cannot store tokens', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    await t.createShop('keyless', { name: 'Keyless shop' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  it('says what the operator must set, on the Connection and Billing pages, with no button that fails', async () => {
    const { page, errors } = await signInToConsole(browser, base, ADMIN_TOKEN);
    await page.getByRole('link', { name: 'Connection' }).click();
    const notice = page.getByRole('note').filter({ hasText: 'cannot store access tokens' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('REBOUND_SECRET_KEY');
    expect(await page.getByRole('button', { name: 'Connect', exact: true }).isDisabled()).toBe(true);

    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByLabel('Provider', { exact: true }).selectOption('remote');
    await notice.waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    // The ledger needs no token: it can still be chosen and saved.
    await page.getByLabel('Provider', { exact: true }).selectOption('ledger');
    expect(await notice.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });
});
