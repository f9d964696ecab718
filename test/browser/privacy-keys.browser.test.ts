import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_TOKEN, startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { launchChromium, listen, screenshot, signInToConsole } from '../helpers/browser.js';

declare const location: { hash: string };

const SESSION = 'a7a7a7a7-0000-4000-8000-0000000000a7';

/**
 * The Privacy and Keys pages, as a merchant signed in with their private key uses them: a
 * customer's own request exported and erased, keys rotated without being signed out, and (for the
 * operator) a replaced key ended at once.
 */
describe.skipIf(!inject('chromium'))('the Privacy and Keys pages', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let keys: { public: string; private: string };

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    keys = await t.createShop('mine', { name: 'My shop' });
    await t.admin('PUT', '/admin/v1/shops/mine/customers', [
      { id: 6512367, email: 'rosa@example.com', tags: [] },
      { id: 8800, email: 'ana@example.com', tags: [] },
    ]);
    await t.admin('PUT', '/admin/v1/shops/mine/orders', [
      {
        id: 5,
        created_at: new Date(Date.now() - 86_400_000).toISOString(),
        customer: { id: 6512367 },
        line_items: [{ id: 51, product_id: 1, variant_id: 11, quantity: 1, price: '4.00' }],
      },
    ]);
    const view = await t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${keys.public}&subject=user&verb=viewed&noun=product` +
        `&shop_product_handle=product-1&uuid=${SESSION}&shop_customer_id=6512367`,
    });
    expect(view.statusCode).toBe(200);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  it("exports a customer's data as a file, then erases them after asking", async () => {
    const { page, errors } = await signInToConsole(browser, base, keys.private);
    await page.getByRole('link', { name: 'Privacy' }).click();
    await page.getByText('No requests in the last 30 days.').waitFor();

    // Not an id: said in words, nothing sent.
    await page.getByLabel('Customer id in your store').fill('rosa');
    await page.getByRole('button', { name: 'Export their data' }).click();
    await page.getByRole('alert').filter({ hasText: 'a whole number' }).waitFor();

    // An id nothing is stored about (a typo): said so, nothing downloaded.
    let downloads = 0;
    const countDownloads = () => downloads++;
    page.on('download', countDownloads);
    await page.getByLabel('Customer id in your store').fill('6512376');
    await page.getByRole('button', { name: 'Export their data' }).click();
    await page.getByRole('alert').filter({ hasText: 'Nothing is stored about customer 6512376' }).waitFor();
    expect(downloads).toBe(0);
    page.off('download', countDownloads);
    // Another customer's e-mail: refused, naming whose it is.
    await page.getByLabel('Their e-mail address (optional)').fill('ana@example.com');
    await page.getByLabel('Customer id in your store').fill('6512367');
    await page.getByRole('button', { name: 'Export their data' }).click();
    await page.getByRole('alert').filter({ hasText: "is customer 8800's, not customer 6512367's" }).waitFor();
    // Not an e-mail at all: said before anything is asked or sent.
    await page.getByLabel('Their e-mail address (optional)').fill('rosa.example.com');
    await page.getByRole('button', { name: 'Erase them…' }).click();
    await page.getByRole('alert').filter({ hasText: 'is not an e-mail address' }).waitFor();
    await page.getByLabel('Their e-mail address (optional)').fill('');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export their data' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toMatch(/^customer-6512367-data-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await readFile((await file.path())!, 'utf8'));
    expect(exported.customer).toMatchObject({ id: 6512367, email: 'rosa@example.com' });
    expect(exported.orders).toHaveLength(1);
    expect(exported.events.map((e: { uuid: string }) => e.uuid)).toEqual([SESSION]);
    const row = page.getByRole('row').filter({ hasText: 'Data export (made here)' });
    await row.getByRole('button', { name: 'Download the export of customer 6512367' }).waitFor();
    await screenshot(page, 'console-privacy');

    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await page.getByLabel('Customer id in your store').fill('6512367');
    await page.getByRole('button', { name: 'Erase them…' }).click();
    await page.getByRole('status').filter({ hasText: 'Customer 6512367 is erased' }).waitFor();
    expect(asked[0]).toContain('cannot be undone');
    const said = await page.getByRole('status').filter({ hasText: 'is erased' }).textContent();
    expect(said).toContain('1 customer record deleted');
    expect(said).toContain('1 browsing event deleted');
    expect(said).toContain('1 order kept as anonymous sales');
    // The pressed button was disabled while it ran: focus is on what it did, not lost to the page.
    expect(await page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe(said);
    // The export went with her; the erasure is listed, with nothing to download.
    await page.getByRole('row').filter({ hasText: 'Erasure (made here)' }).waitFor();
    const hers = page.getByRole('row').filter({ hasText: 'Data export' }).filter({ hasText: '6512367' });
    expect(await hers.count()).toBe(0);
    const stored = (await t.admin('GET', `/admin/v1/shops/mine/events?uuid=${SESSION}`)).json().data;
    expect(stored).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('makes new keys, shows them once, and keeps a merchant signed in with the old private key going', async () => {
    const { page, errors } = await signInToConsole(browser, base, keys.private);
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('cell', { name: 'In use' }).first().waitFor();
    expect(await page.getByRole('cell', { name: 'In use' }).count()).toBe(2);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Make new keys…' }).click();
    const shown = page.getByRole('region', { name: 'New keys' });
    await shown.waitFor();
    const codes = await shown.locator('code').allTextContents();
    expect(codes).toHaveLength(2);
    const [newPublic, newPrivate] = codes as [string, string];
    expect(await shown.textContent()).toContain('The private key you signed in with has ended');
    // The new keys work; the private key that asked ended at once; the old public key lives out its day.
    const trending = (key: string) =>
      t.app.inject({ method: 'GET', url: `/api/v1/products/trending_products?key=${key}` });
    expect((await trending(newPublic)).statusCode).toBe(200);
    expect((await trending(keys.public)).statusCode).toBe(200);
    const asOld = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/shops/mine/keys',
      headers: { authorization: `Bearer ${keys.private}` },
    });
    expect(asOld.statusCode).toBe(401);
    await page
      .getByRole('cell', { name: /^Replaced: works until/ })
      .first()
      .waitFor();

    // The console signed in with the new key: a reload stays signed in and lists the keys. Reloading while the
    // new keys show asks first (they are not shown again).
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    expect(asked).toEqual(['beforeunload']);
    await page.getByRole('link', { name: 'Keys' }).click();
    await page
      .getByRole('cell', { name: /^Replaced: works until/ })
      .first()
      .waitFor();
    expect(await page.evaluate<string | null>('sessionStorage.getItem("rebound.console.token")')).toBe(newPrivate);
    expect(await page.getByRole('button', { name: /^End the/ }).count()).toBe(0);

    // The operator makes new keys meanwhile: this key is replaced, and the page says so instead of offering a refusal.
    expect((await t.admin('POST', '/admin/v1/shops/mine/keys/rotate')).statusCode).toBe(200);
    await page.reload();
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('note').filter({ hasText: 'signed in with a private key that was replaced' }).waitFor();
    expect(await page.getByRole('button', { name: 'Make new keys…' }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
    keys = { public: newPublic, private: newPrivate };
  });

  it('tells a merchant whose key was ended why they are signed out', async () => {
    const current = (await t.admin('POST', '/admin/v1/shops/mine/keys/rotate')).json().keys;
    const { page, errors } = await signInToConsole(browser, base, current.private);
    const revoked = await t.admin('POST', '/admin/v1/shops/mine/keys/revoke', { key_prefix: current.private });
    expect(revoked.statusCode).toBe(200);
    // To another page by its address, not its link: a request the Rulesets page still had under way may
    // already have met the ended key and signed out, taking the link away (it did on a loaded machine).
    await page.evaluate(() => {
      location.hash = '#/privacy';
    });
    await page.getByText('Your sign-in has ended: the key was ended or replaced.').waitFor();
    expect(await page.getByLabel('Operator token or shop private key').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lets the operator end a replaced key at once', async () => {
    const { page, errors } = await signInToConsole(browser, base, ADMIN_TOKEN);
    await page.getByRole('link', { name: 'Keys' }).click();
    const prefix = (await t.admin('GET', '/admin/v1/shops/mine/keys'))
      .json()
      .data.find((k: { kind: string; state: string }) => k.kind === 'public' && k.state === 'grace').key_prefix;
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `End the public key ${prefix}… now` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Ended the public key ${prefix}…` })
      .waitFor();
    const listed = (await t.admin('GET', '/admin/v1/shops/mine/keys')).json().data;
    expect(listed.find((k: { key_prefix: string }) => k.key_prefix === prefix).state).toBe('ended');
    // Ended keys are out of the way until asked for.
    await page.getByRole('row').filter({ hasText: prefix }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^Show ended keys \(\d+\)$/ }).click();
    await page.getByRole('row').filter({ hasText: prefix }).getByRole('cell', { name: 'Ended' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
