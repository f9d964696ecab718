import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_TOKEN, startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { launchChromium, listen, signInToConsole } from '../helpers/browser.js';
import { widgetInput } from '../helpers/widgets.js';

declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };
declare const window: { getSelection(): { toString(): string } | null };
declare const location: { hash: string };

/** A console page as served over plain http on a shop's own address: the browser offers no clipboard there. */
async function withoutClipboard(page: Page): Promise<void> {
  await page.addInitScript({
    content: "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true });",
  });
  await page.reload();
  await page.getByRole('heading', { name: 'Rulesets', level: 1 }).waitFor();
}

const selectedText = (page: Page) => page.evaluate(() => window.getSelection()?.toString() ?? '');

/** What a merchant met walking through the console: each case here once went wrong in front of them. */
describe.skipIf(!inject('chromium'))('the console as a merchant walks through it', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    await t.createShop('walk', { name: 'Walk Shop', currency: 'USD' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  it('selects new keys to copy by keyboard without a clipboard, and asks before leaving them', async () => {
    const { page, errors } = await signInToConsole(browser, base, ADMIN_TOKEN);
    await withoutClipboard(page);
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('cell', { name: 'In use' }).first().waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Make new keys…' }).click();
    const shown = page.getByRole('region', { name: 'New keys' });
    await shown.waitFor();
    const [, privateKey] = (await shown.locator('code').allTextContents()) as [string, string];
    await shown.getByRole('button', { name: 'Copy the private key' }).click();
    await shown.getByRole('status').filter({ hasText: 'press Ctrl+C (⌘C on a Mac) to copy it' }).waitFor();
    expect(await selectedText(page)).toBe(privateKey);

    // Leaving while they show asks first; staying keeps them.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('link', { name: 'Rulesets' }).click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toContain('not shown again');
    expect(await shown.isVisible()).toBe(true);
    expect(await page.evaluate(() => location.hash)).toBe('#/keys');
    // Asked and answered: the page goes.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('link', { name: 'Rulesets' }).click();
    await page.getByRole('heading', { name: 'Rulesets', level: 1 }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it("selects a widget's snippet to copy by keyboard without a clipboard", async () => {
    const created = await t.admin('POST', '/admin/v1/shops/walk/widgets', widgetInput({ name: 'Home picks' }));
    expect(created.statusCode).toBe(201);
    const { page, errors } = await signInToConsole(browser, base, ADMIN_TOKEN);
    await withoutClipboard(page);
    await page.getByRole('link', { name: 'Widgets' }).click();
    await page.getByRole('button', { name: 'Edit Home picks' }).click();
    const snippet = page.getByTestId('widget-snippet');
    await snippet.waitFor();
    await page.getByRole('button', { name: 'Copy the snippet' }).click();
    await page.getByRole('status').filter({ hasText: 'press Ctrl+C (⌘C on a Mac) to copy it' }).waitFor();
    expect(await selectedText(page)).toBe(await snippet.textContent());
    expect(errors).toEqual([]);
    await page.close();
  });
  it('says so when deleting a widget fails, and moves focus to the message', async () => {
    const created = await t.admin('POST', '/admin/v1/shops/walk/widgets', widgetInput({ name: 'Cart extras' }));
    expect(created.statusCode).toBe(201);
    const { page, errors } = await signInToConsole(browser, base, ADMIN_TOKEN);
    await page.route('**/admin/v1/shops/walk/widgets/*', (route) =>
      route.request().method() === 'DELETE' ? route.abort() : route.fallback(),
    );
    await page.getByRole('link', { name: 'Widgets' }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete Cart extras' }).click();
    const said = page.getByRole('alert').filter({ hasText: '“Cart extras” was not deleted' });
    await said.waitFor();
    expect(await said.textContent()).toContain('could not be reached');
    expect(await page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe(
      await said.textContent(),
    );
    expect(await page.getByRole('button', { name: 'Edit Cart extras' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
  it('says what is loading, and what could not be loaded with a way to try again', async () => {
    const { page, errors } = await signInToConsole(browser, base, ADMIN_TOKEN);
    // The widgets' list is held until the page has been looked at, then fails as a server in trouble does.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/admin/v1/shops/walk/widgets', async (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      await held;
      await route.fulfill({ status: 500, json: { error: 'Internal server error.', code: 'internal_error' } });
    });
    await page.getByRole('link', { name: 'Widgets' }).click();
    await page.getByRole('status').filter({ hasText: 'Loading widgets…' }).waitFor();
    expect(await page.getByText('No widgets yet.').count()).toBe(0);
    release();
    const failed = page.getByRole('alert').filter({ hasText: 'Could not load widgets.' });
    await failed.waitFor();
    expect(await failed.textContent()).toContain('The server is not answering properly (500). Try again in a moment.');
    await page.unroute('**/admin/v1/shops/walk/widgets');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('button', { name: 'Create a widget' }).waitFor();
    await expect.poll(() => failed.count()).toBe(0);
    await page.getByRole('table', { name: 'Your widgets' }).or(page.getByText('No widgets yet.')).waitFor();

    // Settings that could not be read again say so, instead of showing the values of sign-in as if current.
    await page.route('**/admin/v1/shops/walk', (route) =>
      route.request().method() === 'GET' ? route.abort() : route.fallback(),
    );
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    const stale = page.getByRole('alert').filter({ hasText: 'Could not load the settings as stored now.' });
    await stale.waitFor();
    expect(await stale.textContent()).toContain('from when you signed in');
    await page.unroute('**/admin/v1/shops/walk');
    await stale.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => stale.count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
  it('fits the Billing page on a 375 px phone: the webhook addresses wrap', async () => {
    const { page, errors } = await signInToConsole(browser, base, ADMIN_TOKEN);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    const widths = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    expect(errors).toEqual([]);
    await page.close();
  });
  it('says an emptied ruleset name once, linked to the field, and the preview points at the settings', async () => {
    const { page, errors } = await signInToConsole(browser, base, ADMIN_TOKEN);
    await page.getByRole('button', { name: 'New ruleset' }).click();
    const name = page.getByLabel('Ruleset name');
    await name.fill('Upsell');
    await name.fill('');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    const described = await name.getAttribute('aria-describedby');
    expect(described).toBeTruthy();
    const said = page.locator(`[id="${described}"]`);
    expect((await said.textContent())?.trim()).toMatch(/must not be empty$/);
    expect(await said.getByRole('listitem').count()).toBe(1);
    await page
      .getByRole('alert')
      .filter({ hasText: 'The preview runs again once the problems marked in the ruleset settings are fixed.' })
      .waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
  it("reads each setting's unit, default and help with its input, and offers time zones by name", async () => {
    const { page, errors } = await signInToConsole(browser, base, ADMIN_TOKEN);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    const description = (label: string) =>
      page.getByLabel(label, { exact: true }).evaluate((input) =>
        (input.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .filter(Boolean)
          .map((id: string) => input.ownerDocument.getElementById(id)?.textContent ?? `(no ${id})`)
          .join(' | '),
      );
    expect(await description('Trending looks back')).toBe(
      'days | Not set: the default (30 days) applies. | How far back orders count for “Trending now”.',
    );
    expect(await description('Trending counts')).toContain('Not set: the default (orders) applies.');
    const zone = page.getByLabel('Time zone (days and charts follow it)');
    expect(await description('Time zone (days and charts follow it)')).toContain('America/New_York');
    const offered = await zone.evaluate((input) =>
      [...(input.ownerDocument.getElementById(input.getAttribute('list') ?? '')?.querySelectorAll('option') ?? [])].map(
        (o) => o.getAttribute('value'),
      ),
    );
    expect(offered).toContain('America/New_York');
    expect(offered).toContain('Europe/Berlin');
    // Still typed freely.
    await zone.fill('Etc/UTC');
    expect(await zone.inputValue()).toBe('Etc/UTC');
    expect(errors).toEqual([]);
    await page.close();
  });
  it("refuses a shop's public key at sign-in in words, without asking the server", async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    let asked = 0;
    page.on('request', (request) => {
      if (request.url().includes('/admin/v1/')) asked++;
    });
    await page.goto(`${base}/console/`);
    await page.getByLabel('Operator token or shop private key').fill('rb_pub_0123456789abcdef0123456789abcdef');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .filter({
        hasText:
          "That is the shop's public key, for storefronts; " +
          'sign in with its private key (rb_priv_…) or the operator token.',
      })
      .waitFor();
    expect(asked).toBe(0);
    await page.close();
  });
});
