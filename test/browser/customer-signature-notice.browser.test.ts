import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { launchChromium, listen, signInToConsole } from '../helpers/browser.js';

/** The page's document, as the functions run in the browser see it. */
declare const document: { activeElement: { textContent: string | null } | null };

/**
 * The console warns while customer lists are unsigned; the switch lives in Settings, asks with
 * the consequence spelled out, and is undone there. Every shop setting is shown and undone there too.
 */
describe.skipIf(!inject('chromium'))('customer signatures and shop settings in Chromium', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let privateKey: string;
  let publicKey: string;

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    ({ private: privateKey, public: publicKey } = await t.createShop('unsigned', { name: 'Unsigned' }));
    // The operator's own settings, which the shop's key must be able to send back unchanged.
    expect(
      (
        await t.admin('PATCH', '/admin/v1/shops/unsigned', {
          settings: { rate_limit_public_per_minute: 900, trending_window_days: 10 },
        })
      ).statusCode,
    ).toBe(200);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  const signIn = () => signInToConsole(browser, base, privateKey);

  const settingsOf = async () => (await t.admin('GET', '/admin/v1/shops/unsigned')).json().shop.settings;
  const named = async () =>
    (await t.app.inject(`/api/v1/products/purchased?key=${publicKey}&shop_customer_id=5`)).statusCode;

  it(
    'asks before requiring signatures, saying what breaks; a dismissed ' +
      'question changes nothing; Settings undoes it',
    async () => {
      const { page, errors } = await signIn();
      const notice = page.getByRole('region', { name: 'Customer signatures' });
      await notice.waitFor();
      // No switch in the notice any more: one click on every page must not break a live storefront.
      expect(await notice.getByRole('button').count()).toBe(0);
      await notice.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await page.getByRole('button', { name: 'Require customer signatures' }).click();
      await expect.poll(() => asked.length).toBe(1);
      expect(asked[0]).toContain('refused (403)');
      expect(asked[0]).toContain('stop showing');
      expect(asked[0]).toContain('count only for the signed customer’s own orders');
      expect((await settingsOf()).require_customer_signature).toBeUndefined();

      // An edit of the form not yet saved is neither saved by the switch nor lost by it.
      const looksBack = page.locator('[data-setting="trending_window_days"]').getByRole('textbox');
      const before = (await settingsOf()).trending_window_days;
      await looksBack.fill('12');
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Require customer signatures' }).click();
      await page.getByText('Customer signatures are now required.').waitFor();
      expect(await settingsOf()).toMatchObject({ require_customer_signature: true, rate_limit_public_per_minute: 900 });
      expect((await settingsOf()).trending_window_days).toBe(before);
      expect(await looksBack.inputValue()).toBe('12');
      expect(await named()).toBe(403);
      await notice.waitFor({ state: 'detached' });

      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Stop requiring customer signatures' }).click();
      await page.getByText('Customer signatures are no longer required.').waitFor();
      expect((await settingsOf()).require_customer_signature).toBeUndefined();
      expect(await named()).toBe(200);
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it('shows every setting with its current value or default, and puts one back to its default', async () => {
    const { page, errors } = await signIn();
    await page.goto(`${base}/console/#/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const trending = page.locator('[data-setting="trending_window_days"]');
    expect(await trending.getByRole('textbox').inputValue()).toBe('10');
    expect(await page.locator('[data-setting="attribution_window_hours"]').textContent()).toContain(
      'Not set: the default (24 hours) applies.',
    );
    expect(await page.locator('[data-setting="rate_limit_public_per_minute"]').getByRole('textbox').inputValue()).toBe(
      '900',
    );
    await trending.getByRole('button', { name: 'Use the default for “Trending looks back”' }).click();
    await page.getByLabel('Trending fades by half every').fill('7');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    // The message takes focus (the disabled button would leave it on the page), so it is read out.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Settings saved.');
    const settings = await settingsOf();
    expect(settings.trending_window_days).toBeUndefined();
    expect(settings).toMatchObject({ trending_half_life_days: 7, rate_limit_public_per_minute: 900 });
    expect(errors).toEqual([]);
    await page.close();
  });
});
