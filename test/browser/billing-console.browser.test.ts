import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { TEST_SECRET_KEY } from '../helpers/billing.js';
import { launchChromium, listen, screenshot, signInToConsole } from '../helpers/browser.js';

const TOKEN = 'console-provider-token-never-shown';

/**
 * The console's billing pages in a real Chromium: the provider
 * settings (token write-only) and a campaign's claim limit.
 */
describe.skipIf(!inject('chromium'))('billing pages of the console in Chromium', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let privateKey: string;

  beforeAll(async () => {
    t = await startApp(backend, { REBOUND_SECRET_KEY: TEST_SECRET_KEY, REBOUND_ALLOW_PRIVATE_UPSTREAMS: 'true' });
    base = await listen(t.app);
    privateKey = (await t.createShop('subs-shop', { name: 'Subscriptions shop' })).private;
    expect(
      (
        await t.admin('POST', '/admin/v1/shops/subs-shop/campaigns', {
          name: 'Winter winback',
          discount_code: 'COLD10',
        })
      ).statusCode,
    ).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  const signedIn = () => signInToConsole(browser, base, privateKey);

  it('switches the shop to a remote provider, with errors in place and the token never shown', async () => {
    const { page, errors } = await signedIn();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('heading', { name: 'Billing provider' }).waitFor();
    expect(await page.getByLabel('Provider', { exact: true }).inputValue()).toBe('ledger');

    await page.getByLabel('Provider', { exact: true }).selectOption('remote');
    // Refused even where private upstreams are allowed (as here, for the loopback fake): credentials in the URL.
    await page.getByLabel('Base URL').fill('https://user:secret@billing.example');
    await page.getByLabel('API token').fill(TOKEN);
    await page.getByRole('button', { name: 'Save' }).click();
    const url = page.getByLabel('Base URL');
    await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
    expect(
      await page
        .getByText(/must not carry credentials/)
        .first()
        .isVisible(),
    ).toBe(true);
    // Said by the field's label, not the API's document and key.
    expect(await page.getByText(/^Base URL: .*must not carry credentials/).count()).toBeGreaterThan(0);
    expect(await page.getByText(/Invalid billing provider|base_url/).count()).toBe(0);

    await url.fill('https://api.billing.example');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await page.getByLabel('API token').inputValue()).toBe('');
    // The status shows as the save answers; the form shows the stored token once the settings are read again.
    await expect.poll(() => page.getByLabel('API token').getAttribute('placeholder')).toContain('Stored');
    expect(await page.content()).not.toContain(TOKEN);
    expect((await t.admin('GET', '/admin/v1/shops/subs-shop/billing/provider')).json()).toEqual({
      type: 'remote',
      base_url: 'https://api.billing.example',
      api_version: '2021-11',
      api_token_set: true,
    });
    expect(await page.getByText('/webhooks/billing/subs-shop').isVisible()).toBe(true);

    // A reload shows what is stored; saving without a new token keeps the stored one.
    await page.reload();
    await page.getByRole('heading', { name: 'Billing provider' }).waitFor();
    await expect.poll(() => page.getByLabel('Base URL').inputValue()).toBe('https://api.billing.example');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await t.admin('GET', '/admin/v1/shops/subs-shop/billing/provider')).json().api_token_set).toBe(true);
    await screenshot(page, 'console-billing-provider');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("changes a campaign's claim limit", async () => {
    const { page, errors } = await signedIn();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Campaigns' }).click();
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    const row = page.getByRole('row', { name: /Winter winback/ });
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('1');
    const limit = page.getByLabel('Claims per customer for Winter winback');
    await limit.fill('3');
    await page.getByRole('button', { name: 'Save limit' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: 3 per customer.' }).waitFor();
    await expect.poll(() => row.getByRole('cell').nth(2).textContent()).toBe('3');
    expect((await t.admin('GET', '/admin/v1/shops/subs-shop/campaigns')).json().data[0].max_claims_per_customer).toBe(
      3,
    );

    await limit.fill('0');
    await page.getByRole('button', { name: 'Save limit' }).click();
    expect(await limit.evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid)).toBe(
      false,
    );
    expect((await t.admin('GET', '/admin/v1/shops/subs-shop/campaigns')).json().data[0].max_claims_per_customer).toBe(
      3,
    );
    await screenshot(page, 'console-campaign-claim-limit');
    expect(errors).toEqual([]);
    await page.close();
  });
  it('creates a campaign in the console, and sets and removes the webhook secrets on the Billing page', async () => {
    const { page, errors } = await signedIn();
    page.setDefaultTimeout(20_000);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Campaigns' }).click();
    await page.getByRole('heading', { name: 'New campaign' }).waitFor();
    await page.getByLabel('Campaign name').fill('Spring return');
    await page.getByLabel('Discount code applied on reactivation (optional)').fill('SPRING5');
    await page.getByLabel('Reactivations one customer may make with it').fill('2');
    // Double-clicked, as merchants do: one campaign (the second click came before the first one's answer).
    await page.getByRole('button', { name: 'Create the campaign' }).dblclick();
    await page.getByText(/Created “Spring return”/).waitFor();
    const campaigns = (await t.admin('GET', '/admin/v1/shops/subs-shop/campaigns')).json().data;
    expect(campaigns.filter((c: { name: string }) => c.name === 'Spring return')).toHaveLength(1);
    expect(campaigns.find((c: { name: string }) => c.name === 'Spring return')).toMatchObject({
      discount_code: 'SPRING5',
      max_claims_per_customer: 2,
    });
    await page.getByRole('button', { name: 'Spring return' }).waitFor();
    // Its number, and how links are made with it, are on the page.
    const spring = campaigns.find((c: { name: string }) => c.name === 'Spring return').id as number;
    await page.getByText(`Created “Spring return”, campaign ${spring}`).waitFor();
    await page.getByRole('button', { name: 'Spring return' }).click();
    const using = page.locator('.campaign-links');
    await using.getByRole('heading', { name: 'Using Spring return' }).waitFor();
    expect(await using.textContent()).toContain(`campaign_id=${spring}`);
    // A name already taken, in another case: refused before anything is sent.
    await page.getByLabel('Campaign name').fill('spring RETURN');
    await page.getByRole('button', { name: 'Create the campaign' }).click();
    await page.getByText('A campaign is already named “Spring return”').waitFor();
    const named = (await t.admin('GET', '/admin/v1/shops/subs-shop/campaigns')).json().data;
    expect(named.filter((c: { name: string }) => c.name.toLowerCase() === 'spring return')).toHaveLength(1);

    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Billing' }).click();
    // Pasted with its blanks: never part of a secret, they are dropped before it is sent.
    await page.getByLabel('Storefront webhook secret (not set)').fill('  storefront-secret-0123456789 ');
    await page.getByRole('button', { name: 'Set the storefront webhook secret' }).click();
    await page.getByLabel('Storefront webhook secret (set)').waitFor();
    await page.getByLabel('Billing webhook secret (not set)').fill('billing-secret-0123456789');
    await page.getByRole('button', { name: 'Set the billing webhook secret' }).click();
    await page.getByLabel('Billing webhook secret (set)').waitFor();
    let shop = (await t.admin('GET', '/admin/v1/shops/subs-shop')).json().shop;
    expect(shop).toMatchObject({ webhook_secret_set: true, billing_webhook_secret_set: true });
    expect(await page.content()).not.toContain('storefront-secret-0123456789');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove the billing webhook secret' }).click();
    await page.getByLabel('Billing webhook secret (not set)').waitFor();
    shop = (await t.admin('GET', '/admin/v1/shops/subs-shop')).json().shop;
    expect(shop).toMatchObject({ webhook_secret_set: true, billing_webhook_secret_set: false });
    expect(errors).toEqual([]);
    await page.close();
  });
});
