import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_TOKEN, startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { launchChromium, listen, screenshot, watchErrors } from '../helpers/browser.js';
import { productInput } from '../helpers/fixtures.js';

// Bodies of page.evaluate run in the browser; the test program itself has no DOM library.
declare const document: { documentElement: { scrollWidth: number }; activeElement: unknown };
declare const window: { innerWidth: number };
declare function getComputedStyle(element: unknown): { boxShadow: string };

/**
 * The merchant console in a real Chromium against the real server: sign in, build rulesets in the
 * graphical editor, preview them live, save, and check the public endpoint answers the same.
 */
describe.skipIf(!inject('chromium'))('console in Chromium', () => {
  const backend = backends()[0]!; // the browser drives HTTP; storage is covered on both backends elsewhere
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let publicKey: string;
  let privateKey: string;

  const TENT = 101,
    STAKES = 102,
    GIFT = 103,
    MUG = 104,
    JACKET = 105;

  beforeAll(async () => {
    t = await startApp(backend);
    base = await listen(t.app);
    const keys = await t.createShop('outfitters', { name: 'Outfitters', scopes: ['read_markets'] });
    await t.createShop('second-shop', { name: 'Second shop' });
    publicKey = keys.public;
    privateKey = keys.private;
    const image = (name: string) => [
      { id: name.length, src: `${base}/demo/images/${name}.svg`, width: 800, height: 800 },
    ];
    const products = [
      productInput(TENT, {
        title: 'Alpine Tent',
        handle: 'alpine-tent',
        tags: 'camping, tent',
        product_type: 'Tents',
        images: image('tent'),
      }),
      productInput(STAKES, {
        title: 'Tent Stakes',
        handle: 'tent-stakes',
        tags: 'camping, accessory',
        product_type: 'Accessories',
        images: image('stakes'),
      }),
      productInput(GIFT, {
        title: 'Gift Card',
        handle: 'gift-card',
        tags: 'gift',
        product_type: 'Gift cards',
        images: image('gift'),
      }),
      productInput(MUG, {
        title: 'Trail Mug',
        handle: 'trail-mug',
        tags: 'camping, gift',
        product_type: 'Kitchen',
        images: image('mug'),
      }),
      productInput(JACKET, {
        title: 'Rain Jacket',
        handle: 'rain-jacket',
        tags: 'rain',
        product_type: 'Jackets',
        images: image('jacket'),
      }),
    ];
    expect((await t.admin('PUT', '/admin/v1/shops/outfitters/products', products)).statusCode).toBe(200);
    expect(
      (
        await t.admin('PUT', '/admin/v1/shops/outfitters/collections', [
          {
            id: 9001,
            title: 'Camping',
            handle: 'camping',
            products: [
              { product_id: TENT, position: 1 },
              { product_id: STAKES, position: 2 },
              { product_id: MUG, position: 3 },
            ],
          },
          { id: 9002, title: 'Gifts', handle: 'gifts', products: [{ product_id: GIFT, position: 1 }] },
        ])
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.admin('PUT', '/admin/v1/shops/outfitters/customers', [
          { id: 77, email: 'ann@example.com', tags: 'vip' },
        ])
      ).statusCode,
    ).toBe(200);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await backend.cleanup();
  });

  async function signedIn(width = 1280): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const errors = watchErrors(page);
    await page.goto(`${base}/console/`);
    await page.getByLabel('Operator token or shop private key').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Rulesets' }).waitFor();
    const switcher = page.getByLabel('Shop', { exact: true });
    if ((await switcher.inputValue()) !== 'outfitters') {
      await switcher.selectOption('outfitters');
      await page.getByRole('heading', { name: 'Rulesets' }).waitFor();
    }
    return { page, errors };
  }

  const ruleBlock = (page: Page, n: number) => page.getByRole('region', { name: `Rule ${n}`, exact: true });
  const conditionRow = (page: Page, rule: number, group: number, condition: number) =>
    page.getByRole('group', { name: `Rule ${rule}, group ${group}, condition ${condition}`, exact: true });
  const outputRow = (page: Page, rule: number, output: number) =>
    page.getByRole('group', { name: `Rule ${rule}, output ${output}`, exact: true });
  const preview = (page: Page) => page.getByRole('region', { name: 'Live preview' });

  async function pickProduct(scope: Locator, searchLabel: string, search: string, title: string): Promise<void> {
    await scope.getByLabel(searchLabel, { exact: true }).fill(search);
    await scope.getByRole('button', { name: new RegExp(`^Add ${title}`) }).click();
  }

  async function previewTitles(page: Page): Promise<string[]> {
    const list = preview(page).getByRole('list', { name: 'Preview products' });
    if ((await list.count()) === 0) return [];
    return list.getByRole('article').evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label') ?? ''));
  }

  async function publicTitles(rulesetId: number, query: string): Promise<string[]> {
    const res = await fetch(`${base}/api/v1/custom/id/${rulesetId}?key=${publicKey}&${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { title: string }[] }).data.map((p) => p.title);
  }

  it('refuses a wrong token in place and signs in with the operator token, with a shop switcher', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${base}/console/`);
    await page.getByLabel('Operator token or shop private key').fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not accepted');
    await page.getByLabel('Operator token or shop private key').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Rulesets' }).waitFor();
    const options = await page.getByLabel('Shop', { exact: true }).locator('option').allTextContents();
    expect(options).toEqual(['Outfitters (outfitters)', 'Second shop (second-shop)']);
    await page.close();
    expect(errors).toEqual([]);
  });

  it('signs in with a shop private key, limited to that shop', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/console/`);
    await page.getByLabel('Operator token or shop private key').fill(privateKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Rulesets' }).waitFor();
    expect(await page.getByLabel('Shop', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('banner').textContent()).toContain('Shop: Outfitters');
    // The operator's limits are shown, not editable: a save naming them would be refused whole.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
    const limit = page.getByLabel('Storefront requests per minute per visitor');
    await limit.waitFor();
    expect(await limit.isDisabled()).toBe(true);
    expect(await page.getByLabel('Shop name').isDisabled()).toBe(false);
    // A decimal comma, as most of Europe types it, is the point: a number input dropped it (2,5 saved as 25).
    const halfLife = page.getByLabel('Trending fades by half every');
    await halfLife.fill('2,5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const stored = async () => (await t.admin('GET', `/admin/v1/shops/outfitters`)).json().shop.settings;
    expect((await stored()).trending_half_life_days).toBe(2.5);
    // What is no number is refused naming the field, never saved as something else.
    await halfLife.fill('2.5.1');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText(/Trending fades by half every: must be/).waitFor();
    expect((await stored()).trending_half_life_days).toBe(2.5);
    await page.close();
  });

  it(
    'builds a two-rule ruleset, previews it, saves it, and the public ' +
      'endpoint agrees; reordering changes the answer',
    async () => {
      const { page, errors } = await signedIn();
      await page.getByRole('button', { name: 'New ruleset' }).click();
      await page.getByLabel('Ruleset name').fill('Tent upsell and big carts');

      // Rule 1: IF input products contain the tent, RETURN the stakes.
      const rule1 = ruleBlock(page, 1);
      await rule1.getByLabel('Rule 1 name').fill('Upsell stakes');
      await rule1.getByRole('button', { name: '+ IF condition' }).click();
      const tentCondition = conditionRow(page, 1, 1, 1);
      await tentCondition.getByLabel('Condition type').selectOption('product');
      await tentCondition.getByLabel('Operator').selectOption('contains_any');
      await pickProduct(tentCondition, 'Value: add a product', 'tent', 'Alpine Tent');
      await outputRow(page, 1, 1).getByLabel('Output type').selectOption('product');
      await pickProduct(outputRow(page, 1, 1), 'Products: add a product', 'stakes', 'Tent Stakes');

      // Rule 2: IF the cart subtotal is over 100, RETURN the gift card, and stop.
      await page.getByRole('button', { name: '+ Add rule' }).click();
      const rule2 = ruleBlock(page, 2);
      await rule2.getByLabel('Rule 2 name').fill('Big cart gift');
      await rule2.getByRole('button', { name: '+ IF condition' }).click();
      const subtotal = conditionRow(page, 2, 1, 1);
      await subtotal.getByLabel('Condition type').selectOption('cart_subtotal');
      await subtotal.getByLabel('Operator').selectOption('greater_than');
      await subtotal.getByLabel('Value (USD)', { exact: true }).fill('100');
      await rule2.getByLabel('Exit if matched').check();
      await outputRow(page, 2, 1).getByLabel('Output type').selectOption('product');
      await pickProduct(outputRow(page, 2, 1), 'Products: add a product', 'gift', 'Gift Card');
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Unsaved changes' }).count()).toBe(1);

      // Live preview of the unsaved draft.
      const live = preview(page);
      await pickProduct(live, 'Products on the page: add a product', 'tent', 'Alpine Tent');
      await live.getByLabel(/^Cart subtotal/).fill('150');
      await expect.poll(() => previewTitles(page), { timeout: 60_000 }).toEqual(['Tent Stakes', 'Gift Card']);
      await expect.poll(() => live.getByLabel('Rule 1: matched').count()).toBe(1);
      expect(await live.getByLabel('Rule 2: matched').count()).toBe(1);
      // The trace speaks the merchant's words: the condition's label, amounts in the shop's currency, not API names.
      const traced = await live.getByLabel('Rule 2: matched').textContent();
      expect(traced).toMatch(/Cart subtotal .*\$100\.00 — here: \$150\.00/);
      expect(traced).not.toContain('cart_subtotal');
      expect(await live.textContent()).toContain('Times are in the shop');
      await screenshot(page, 'console-editor');

      // Below the threshold rule 2 does not match, and the trace says so.
      await live.getByLabel(/^Cart subtotal/).fill('40');
      await expect.poll(() => previewTitles(page)).toEqual(['Tent Stakes']);
      expect(await live.getByLabel('Rule 2: not matched').count()).toBe(1);
      await live.getByLabel(/^Cart subtotal/).fill('150');
      await expect.poll(() => previewTitles(page)).toEqual(['Tent Stakes', 'Gift Card']);

      await page.getByRole('button', { name: 'Save ruleset' }).click();
      await expect.poll(() => page.url()).toMatch(/#\/rulesets\/\d+$/);
      const id = Number(/(\d+)$/.exec(page.url())![1]);
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).count()).toBe(1);
      expect(await page.getByRole('status').filter({ hasText: 'Unsaved changes' }).count()).toBe(0);
      const query = `shop_product_ids=${TENT}&cart_subtotal=150`;
      // Saving moves the editor to the ruleset's own address, which runs its preview again: wait for it.
      const served = await publicTitles(id, query);
      expect(served).toEqual(['Tent Stakes', 'Gift Card']);
      await expect.poll(() => previewTitles(page)).toEqual(served);
      const stored = (await t.admin('GET', `/admin/v1/shops/outfitters/rulesets/${id}`)).json().ruleset;
      expect(stored.rules.map((r: { name: string }) => r.name)).toEqual(['Upsell stakes', 'Big cart gift']);
      // The saved ruleset tells the merchant how to put it on a storefront.
      await page.getByText('Use this ruleset on a storefront').click();
      const useIt = await page.locator('.use-it').textContent();
      expect(useIt).toContain(`data-ruleset="${id}"`);
      // Every input the ruleset reads is in both snippets: the cart rule needs the cart subtotal.
      expect(useIt).toContain('data-cart-subtotal="CART_SUBTOTAL"');
      expect(useIt).toContain('&shop_product_ids=PRODUCT_ID&cart_subtotal=CART_SUBTOTAL');
      expect(stored.rules[1]).toMatchObject({
        exit_if_matched: true,
        logic: [{ rules: [{ type: 'cart_subtotal', operator: 'greater_than', value: '100' }] }],
      });

      // Reorder with the keyboard buttons: the exit rule runs first and the stakes are never reached.
      await rule2.getByRole('button', { name: 'Move rule 2 up' }).click();
      await expect.poll(() => previewTitles(page)).toEqual(['Gift Card']);
      // Focus follows the moved rule (now first, so its other move button), instead of dropping to the page.
      await expect
        .poll(() =>
          page.evaluate(() =>
            (document.activeElement as unknown as { getAttribute(n: string): string | null }).getAttribute(
              'aria-label',
            ),
          ),
        )
        .toBe('Move rule 1 down');
      expect(await live.getByLabel('Rule 2: not evaluated').count()).toBe(1);
      await page.getByRole('button', { name: 'Save ruleset' }).click();
      await expect.poll(() => publicTitles(id, query)).toEqual(['Gift Card']);

      // Reorder by dragging the handle (dnd-kit's keyboard drag: Space, arrow, Space).
      const handle = page.getByRole('button', { name: /^Drag rule 1 to reorder/ });
      await handle.focus();
      // Each key waits for dnd-kit's own announcement of its effect (it measures and animates between keys).
      const announced = () => page.locator('[id^=DndLiveRegion]').textContent();
      for (const [key, effect] of [
        ['Space', /Picked up rule 1\.|Rule 1 is over position 1\./],
        ['ArrowDown', /Rule 1 is over position 2\./],
        ['Space', /Rule 1 dropped at position 2\./],
      ] as const) {
        await page.keyboard.press(key);
        await expect.poll(announced).toMatch(effect);
      }
      await expect.poll(() => ruleBlock(page, 1).getByLabel('Rule 1 name').inputValue()).toBe('Upsell stakes');
      await expect.poll(() => previewTitles(page)).toEqual(['Tent Stakes', 'Gift Card']);

      // And with the mouse: drag rule 2 above rule 1.
      const from = await page.getByRole('button', { name: /^Drag rule 2 to reorder/ }).boundingBox();
      const to = await page.getByRole('button', { name: /^Drag rule 1 to reorder/ }).boundingBox();
      await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
      await page.mouse.down();
      await page.mouse.move(from!.x + from!.width / 2, from!.y - 10, { steps: 5 });
      await page.mouse.move(to!.x + to!.width / 2, to!.y - 20, { steps: 10 });
      await page.mouse.up();
      await expect.poll(() => ruleBlock(page, 1).getByLabel('Rule 1 name').inputValue()).toBe('Big cart gift');
      await expect.poll(() => previewTitles(page)).toEqual(['Gift Card']);

      // An invalid value shows the server's message next to its row, and saving is refused.
      await rule1.getByRole('button', { name: '+ AND IF' }).click();
      const pattern = conditionRow(page, 1, 1, 2);
      await pattern.getByLabel('Condition type').selectOption('url');
      await pattern.getByLabel('Operator').selectOption('matches_regex');
      await pattern.getByLabel('Value', { exact: true }).fill('/(unclosed/');
      await page.getByRole('button', { name: 'Save ruleset' }).click();
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Not saved' }).count()).toBe(1);
      expect(await pattern.getByRole('listitem').textContent()).toContain('is not a valid regular expression');
      expect(await pattern.getByLabel('Value', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      expect(await conditionRow(page, 1, 1, 1).getByRole('listitem').count()).toBe(0);
      await screenshot(page, 'console-editor-invalid');
      expect(await publicTitles(id, query)).toEqual(['Gift Card']); // the stored ruleset is untouched

      // The browser's Back button asks too, and staying keeps the draft.
      let asked = '';
      page.once('dialog', (dialog) => {
        asked = dialog.message();
        void dialog.dismiss();
      });
      await page.goBack();
      await expect.poll(() => asked).toContain('unsaved changes');
      expect(await pattern.getByLabel('Value', { exact: true }).inputValue()).toBe('/(unclosed/');
      expect(page.url()).toMatch(/#\/rulesets\/\d+$/);
      // Leaving with unsaved changes asks first; dismissing stays on the editor.
      asked = '';
      page.once('dialog', (dialog) => {
        asked = dialog.message();
        void dialog.dismiss();
      });
      await page.getByRole('link', { name: 'Catalog' }).click();
      expect(asked).toContain('unsaved changes');
      expect(page.url()).toMatch(/#\/rulesets\/\d+$/);

      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it('sets and saves every condition type and output type of the rule catalog without touching JSON', async () => {
    const catalog = (await t.admin('GET', '/admin/v1/rule-catalog')).json() as {
      conditions: { type: string; operators: { code: string; value: string }[] }[];
      outputs: { type: string; value: string }[];
    };
    const { page, errors } = await signedIn();
    await page.getByRole('button', { name: 'New ruleset' }).click();
    await page.getByLabel('Ruleset name').fill('Every type');
    const rule = ruleBlock(page, 1);
    await rule.getByRole('button', { name: '+ IF condition' }).click();

    // One row per (type, operator) pair whose value widget differs, so every value kind is driven once per type.
    const rows: { type: string; operator: string; kind: string }[] = [];
    for (const condition of catalog.conditions) {
      if (condition.operators.length === 0) {
        rows.push({ type: condition.type, operator: '', kind: 'none' });
        continue;
      }
      const kinds = new Set<string>();
      for (const op of condition.operators)
        if (!kinds.has(op.value)) {
          kinds.add(op.value);
          rows.push({ type: condition.type, operator: op.code, kind: op.value });
        }
    }
    const expected: Record<string, unknown>[] = [];
    for (const [i, row] of rows.entries()) {
      if (i > 0) await rule.getByRole('button', { name: '+ AND IF' }).click();
      const line = conditionRow(page, 1, 1, i + 1);
      await line.getByLabel('Condition type').selectOption(row.type);
      if (row.operator) await line.getByLabel('Operator').selectOption(row.operator);
      expected.push({
        type: row.type,
        ...(row.operator ? { operator: row.operator } : {}),
        ...(await fillValue(line, row.kind)),
      });
    }

    // Outputs: one row per output type.
    const outputs: Record<string, unknown>[] = [];
    for (const [i, output] of catalog.outputs.entries()) {
      if (i > 0) await rule.getByRole('button', { name: '+ AND return' }).click();
      const line = outputRow(page, 1, i + 1);
      await line.getByLabel('Output type').selectOption(output.type);
      outputs.push({ type: output.type, ...(await fillOutput(line, output.value)) });
    }

    await page.getByRole('button', { name: 'Save ruleset' }).click();
    await expect.poll(() => page.url(), { timeout: 60_000 }).toMatch(/#\/rulesets\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    const stored = (await t.admin('GET', `/admin/v1/shops/outfitters/rulesets/${id}`)).json().ruleset;
    expect(stored.rules[0].logic[0].rules).toEqual(expected);
    expect(stored.rules[0].output).toEqual(outputs);
    expect(new Set(expected.map((c) => c.type))).toEqual(new Set(catalog.conditions.map((c) => c.type)));
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  /** Drives a value widget of a kind and returns what the stored condition should then hold. */
  async function fillValue(line: Locator, kind: string): Promise<Record<string, unknown>> {
    switch (kind) {
      case 'none':
        return {};
      case 'products':
        await pickProduct(line, 'Value: add a product', 'mug', 'Trail Mug');
        return { products: [{ product_id: MUG, variant_ids: [] }] };
      case 'variant_id_list':
        await line.getByLabel('Value: add a variant', { exact: true }).fill('jacket');
        await line.getByRole('button', { name: new RegExp(`^Add Rain Jacket — M #${JACKET * 10 + 2}`) }).click();
        return { value: String(JACKET * 10 + 2) };
      case 'collection_id_list':
        await line.getByLabel('Gifts').check();
        return { value: '9002' };
      case 'text_list':
        await line.getByLabel('Value', { exact: true }).fill('camping, gift');
        return { value: 'camping, gift' };
      case 'text_list_or_regex':
      case 'text_or_regex':
        await line.getByLabel('Value', { exact: true }).fill('/^tent/i');
        return { value: '/^tent/i' };
      case 'number': // money or a count: the label names the currency for money, the role is the same
        await line.getByRole('textbox').fill('3');
        return { value: '3' };
      case 'number_range':
        await line.getByRole('textbox').first().fill('2');
        await line.getByRole('textbox').last().fill('9');
        return { value: '2,9' };
      case 'date':
        await line.getByLabel('Value', { exact: true }).fill('2026-12-24');
        await line.getByLabel('Value (time, optional)', { exact: true }).fill('18:30');
        return { value: '2026-12-24T18:30' };
      case 'date_range':
        await line.getByLabel('Value: from', { exact: true }).fill('2026-11-27');
        await line.getByLabel('Value: to', { exact: true }).fill('2026-11-30');
        return { value: '2026-11-27,2026-11-30' };
      case 'weekday_list':
        await line.getByLabel('Sat').check();
        await line.getByLabel('Sun').check();
        return { value: 'sat,sun' };
      case 'time_range':
        await line.getByLabel('Value: from', { exact: true }).fill('22:00');
        await line.getByLabel('Value: until', { exact: true }).fill('06:00');
        return { value: '22:00,06:00' };
      case 'text':
        await line.getByLabel('Value', { exact: true }).fill('/collections/sale');
        return { value: '/collections/sale' };
      case 'country_list':
        await line.getByLabel('Value', { exact: true }).fill('US,CA');
        return { value: 'US,CA' };
      default:
        throw new Error(
          `the console test has no way to fill value kind ${kind}; the catalog grew a kind the console must support`,
        );
    }
  }

  async function fillOutput(line: Locator, kind: string): Promise<Record<string, unknown>> {
    switch (kind) {
      case 'none':
        return {};
      case 'products':
        await pickProduct(line, 'Products: add a product', 'stakes', 'Tent Stakes');
        return { products: [{ product_id: STAKES, variant_ids: [] }] };
      case 'collection':
        await line.getByLabel('Collection', { exact: true }).selectOption({ label: 'Camping (3)' });
        return { collection_id: 9001 };
      case 'tag_list':
        await line.getByLabel('Tags', { exact: true }).fill('gift');
        return { value: 'gift' };
      case 'endpoint':
        // A list by its name, how many in its own field; other settings typed as they are, spaces and all.
        await line.getByLabel('List', { exact: true }).selectOption({ label: 'Search results' });
        await line.getByLabel('How many').fill('3');
        await line.getByLabel('More settings (optional)').pressSequentially('query=red tent');
        return { endpoint: '/products/search?query=red tent&limit=3' };
      default:
        throw new Error(`the console test has no way to fill output kind ${kind}`);
    }
  }

  it('lists rulesets with their rule count and last change, and duplicates and deletes them', async () => {
    const created = await t.admin('POST', '/admin/v1/shops/outfitters/rulesets', {
      name: 'Listed set',
      rules: [
        { output: [{ type: 'product', products: [{ product_id: GIFT }] }] },
        { enabled: false, output: [{ type: 'none' }] },
      ],
    });
    expect(created.statusCode).toBe(201);
    const { page, errors } = await signedIn();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Listed set', exact: true }) });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(0, 4)).toEqual([String(created.json().ruleset.id), 'Listed set', 'Yes', '2']);
    expect(cells[4]).not.toBe('—');

    await row.getByRole('button', { name: 'Duplicate Listed set' }).click();
    const copyRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Listed set (copy)' }) });
    await copyRow.waitFor();
    const list = (await t.admin('GET', '/admin/v1/shops/outfitters/rulesets')).json().data as {
      id: number;
      name: string;
      rules: unknown[];
    }[];
    const copy = list.find((r) => r.name === 'Listed set (copy)')!;
    expect(copy.rules).toEqual(list.find((r) => r.name === 'Listed set')!.rules);

    page.once('dialog', (dialog) => void dialog.accept());
    await copyRow.getByRole('button', { name: 'Delete Listed set (copy)' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Listed set (copy)' }).count()).toBe(0);
    expect((await t.admin('GET', `/admin/v1/shops/outfitters/rulesets/${copy.id}`)).statusCode).toBe(404);

    // Opening a ruleset moves focus to its heading once it has loaded, for keyboard and screen-reader users.
    await row.getByRole('link', { name: 'Listed set', exact: true }).click();
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (document.activeElement as unknown as { tagName: string; textContent: string }).tagName +
            ' ' +
            (document.activeElement as unknown as { textContent: string }).textContent,
        ),
      )
      .toBe(`H1 Ruleset ${created.json().ruleset.id}`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it(
    'hands keyboard focus on: a new row takes it, a removed chip passes ' +
      'it to the next; an untouched new ruleset has nothing to lose',
    async () => {
      const { page, errors } = await signedIn();
      const focused = () =>
        page.evaluate(() => {
          const el = document.activeElement as unknown as {
            tagName: string;
            getAttribute(n: string): string | null;
            closest(s: string): { getAttribute(n: string): string | null } | null;
          };
          return {
            tag: el.tagName,
            label: el.getAttribute('aria-label'),
            group: el.closest('fieldset, [role="group"]')?.getAttribute('aria-label') ?? null,
          };
        });
      await page.getByRole('button', { name: 'New ruleset' }).click();
      expect(await page.getByRole('status').filter({ hasText: 'Unsaved changes' }).count()).toBe(0);
      await ruleBlock(page, 1).getByRole('button', { name: '+ IF condition' }).press('Enter');
      await expect.poll(focused).toMatchObject({ tag: 'SELECT', group: 'Rule 1, group 1, condition 1' });
      expect(await page.getByRole('status').filter({ hasText: 'Unsaved changes' }).count()).toBe(1);

      const products = outputRow(page, 1, 1);
      await pickProduct(products, 'Products: add a product', 'tent', 'Alpine Tent');
      await pickProduct(products, 'Products: add a product', 'stakes', 'Tent Stakes');
      await products.getByRole('button', { name: 'Remove Alpine Tent' }).press('Enter');
      await expect.poll(focused).toMatchObject({ label: 'Remove Tent Stakes' });
      await page.keyboard.press('Enter');
      await expect.poll(focused).toMatchObject({ tag: 'INPUT' });
      expect(await products.getByRole('listitem').count()).toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it('labels every control, keeps focus visible, and fits a phone screen', async () => {
    const { page, errors } = await signedIn(390);
    await page.getByRole('button', { name: 'New ruleset' }).click();
    // A new ruleset's untouched rows are not reported as problems while the live preview runs.
    await expect.poll(() => preview(page).getByRole('status').textContent()).toMatch(/\d+ products?/);
    expect(await page.locator('.problems').count()).toBe(0);
    await ruleBlock(page, 1).getByRole('button', { name: '+ IF condition' }).click();
    await conditionRow(page, 1, 1, 1).getByLabel('Condition type').selectOption('cart_subtotal');
    const unlabeled = await page.locator('input, select, textarea, button').evaluateAll((controls) =>
      controls
        .filter((c) => {
          const el = c as unknown as {
            type?: string;
            labels?: { length: number } | null;
            getAttribute(name: string): string | null;
          };
          if (el.type === 'hidden') return false;
          const named =
            (el.labels?.length ?? 0) > 0 ||
            el.getAttribute('aria-label') ||
            el.getAttribute('aria-labelledby') ||
            (c.textContent ?? '').trim() !== '';
          return !named;
        })
        .map((c) => c.outerHTML.slice(0, 120)),
    );
    expect(unlabeled).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // Keyboard focus is drawn: the focused control gets a visible ring.
    await page.getByLabel('Ruleset name').focus();
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement).boxShadow);
    expect(ring).not.toBe('none');
    await screenshot(page, 'console-editor-phone');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('wraps a product title of one long word on a phone, in the rule and in the preview', async () => {
    const long = 'Ultralightweatherproofexpedition'.repeat(3);
    await t.admin('PUT', '/admin/v1/shops/outfitters/products', [productInput(7777, { title: long, handle: 'long' })]);
    const made = await t.admin('POST', '/admin/v1/shops/outfitters/rulesets', {
      name: 'One long title',
      rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 7777 }] }] }],
    });
    const { page, errors } = await signedIn(390);
    await page.goto(`${base}/console/#/rulesets/${made.json().ruleset.id}`);
    await expect.poll(() => page.getByText(long).count()).toBeGreaterThanOrEqual(2);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await page.close();
    await t.admin('DELETE', `/admin/v1/shops/outfitters/rulesets/${made.json().ruleset.id}`);
    await t.admin('DELETE', '/admin/v1/shops/outfitters/products/7777');
  });

  it('names every page in the tab title, the editor by its saved ruleset name', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    const title = (expected: string) => expect.poll(() => page.title()).toBe(expected);
    await page.goto(`${base}/console/`);
    await title('Sign in — Rebound');
    await page.getByLabel('Operator token or shop private key').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Rulesets' }).waitFor();
    const switcher = page.getByLabel('Shop', { exact: true });
    if ((await switcher.inputValue()) !== 'outfitters') await switcher.selectOption('outfitters');
    await title('Rulesets — Outfitters — Rebound');

    await page.getByRole('button', { name: 'New ruleset' }).click();
    await title('New ruleset — Outfitters — Rebound');
    await page.getByLabel('Ruleset name').fill('Titled set');
    await outputRow(page, 1, 1).getByLabel('Output type').selectOption('none');
    await page.getByRole('button', { name: 'Save ruleset' }).click();
    await title('Edit Titled set — Outfitters — Rebound');
    // The title follows the saved name, not every keystroke.
    await page.getByLabel('Ruleset name').fill('Retitled set');
    await title('Edit Titled set — Outfitters — Rebound');
    await page.getByRole('button', { name: 'Save ruleset' }).click();
    await title('Edit Retitled set — Outfitters — Rebound');

    for (const [link, expected] of [
      ['Catalog', 'Catalog'],
      ['Insights', 'Insights'],
      ['Campaigns', 'Campaigns'],
      ['Billing', 'Billing'],
      ['Keys', 'Keys'],
      ['Privacy', 'Privacy'],
    ] as const) {
      await page.getByRole('link', { name: link }).click();
      await title(`${expected} — Outfitters — Rebound`);
    }
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.getByRole('button', { name: 'Alpine Tent' }).click();
    await title('Alpine Tent — Catalog — Outfitters — Rebound');
    await page.goto(`${base}/console/#/rulesets/not-a-number`);
    await title('Not found — Outfitters — Rebound');
    expect(errors).toEqual([]);
    await page.close();
  });

  it(
    'keeps the preview inputs across rulesets and the catalog search ' +
      'across a product, and forgets both on signing out',
    async () => {
      const { page, errors } = await signedIn();
      await page.getByRole('button', { name: 'New ruleset' }).click();
      await preview(page)
        .getByLabel(/^Cart subtotal/)
        .fill('75');
      await page.getByRole('link', { name: 'Rulesets' }).click();
      await page.getByRole('button', { name: 'New ruleset' }).click();
      expect(
        await preview(page)
          .getByLabel(/^Cart subtotal/)
          .inputValue(),
      ).toBe('75');

      await page.getByRole('link', { name: 'Catalog' }).click();
      await page.getByLabel('Search products').fill('stakes');
      await page.getByRole('button', { name: 'Tent Stakes' }).click();
      await page.getByRole('button', { name: '← Catalog' }).click();
      expect(await page.getByLabel('Search products').inputValue()).toBe('stakes');
      await expect
        .poll(() =>
          page
            .getByRole('list', { name: 'Products' })
            .getByRole('article')
            .evaluateAll((a) => a.map((e) => e.getAttribute('aria-label'))),
        )
        .toEqual(['Tent Stakes']);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Operator token or shop private key').fill(ADMIN_TOKEN);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'Catalog' }).click();
      expect(await page.getByLabel('Search products').inputValue()).toBe('');
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it('moves an output with its buttons, focus following it, and saves the outputs in the new order', async () => {
    const { page, errors } = await signedIn();
    await page.getByRole('button', { name: 'New ruleset' }).click();
    await page.getByLabel('Ruleset name').fill('Output order');
    const rule = ruleBlock(page, 1);
    await pickProduct(outputRow(page, 1, 1), 'Products: add a product', 'stakes', 'Tent Stakes');
    // A single output has nothing to move past.
    expect(await rule.getByRole('button', { name: /^Move rule 1, output/ }).count()).toBe(0);
    await rule.getByRole('button', { name: '+ AND return' }).click();
    await outputRow(page, 1, 2).getByLabel('Output type').selectOption('tag');
    await outputRow(page, 1, 2).getByLabel('Tags', { exact: true }).fill('gift');
    expect(await rule.getByRole('button', { name: 'Move rule 1, output 1 up' }).isDisabled()).toBe(true);
    await rule.getByRole('button', { name: 'Move rule 1, output 2 up' }).press('Enter');
    expect(await outputRow(page, 1, 1).getByLabel('Output type').inputValue()).toBe('tag');
    await expect
      .poll(() =>
        page.evaluate(() =>
          (document.activeElement as unknown as { getAttribute(n: string): string | null }).getAttribute('aria-label'),
        ),
      )
      .toBe('Move rule 1, output 1 down');
    await page.getByRole('button', { name: 'Save ruleset' }).click();
    await expect.poll(() => page.url()).toMatch(/#\/rulesets\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    const stored = (await t.admin('GET', `/admin/v1/shops/outfitters/rulesets/${id}`)).json().ruleset;
    expect(stored.rules[0].output).toEqual([
      { type: 'tag', value: 'gift' },
      { type: 'product', products: [{ product_id: STAKES, variant_ids: [] }] },
    ]);
    // Saved again, the saved ruleset keeps focus on its Save button: a disabled button dropped it to the page.
    await page.getByLabel('Ruleset name').fill('Moved outputs');
    await page.getByRole('button', { name: 'Save ruleset' }).click();
    await expect
      .poll(async () => (await t.admin('GET', `/admin/v1/shops/outfitters/rulesets/${id}`)).json().ruleset.name)
      .toBe('Moved outputs');
    await page.getByRole('status').filter({ hasText: /Saved/ }).first().waitFor();
    expect(
      await page.evaluate(() => (document.activeElement as { textContent: string | null } | null)?.textContent),
    ).toBe('Save ruleset');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('browses the catalog, opens a product, and shows insights and campaigns with charts', async () => {
    await t.admin('PUT', '/admin/v1/shops/outfitters/orders', [
      {
        id: 1,
        created_at: new Date(Date.now() - 86_400_000).toISOString(),
        customer: { id: 77 },
        line_items: [{ product_id: STAKES, variant_id: STAKES * 10 + 1, quantity: 4, price: '10.00' }],
      },
      {
        id: 2,
        created_at: new Date(Date.now() - 2 * 86_400_000).toISOString(),
        customer: { id: 77 },
        line_items: [{ product_id: MUG, variant_id: MUG * 10 + 1, quantity: 1, price: '10.00' }],
      },
    ]);
    const campaign = await t.admin('POST', '/admin/v1/shops/outfitters/campaigns', {
      name: 'Winback',
      discount_code: 'COMEBACK',
    });
    expect(campaign.statusCode).toBe(201);
    const { page, errors } = await signedIn();

    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.getByLabel('Search products').fill('tent');
    await expect
      .poll(() =>
        page
          .getByRole('list', { name: 'Products' })
          .getByRole('article')
          .evaluateAll((a) => a.map((e) => e.getAttribute('aria-label'))),
      )
      .toEqual(['Alpine Tent', 'Tent Stakes']);
    await page.getByLabel('Collection').selectOption({ label: 'Camping (3)' });
    await expect
      .poll(() =>
        page
          .getByRole('list', { name: 'Products' })
          .getByRole('article')
          .evaluateAll((a) => a.map((e) => e.getAttribute('aria-label'))),
      )
      .toEqual(['Alpine Tent', 'Tent Stakes', 'Trail Mug']);
    await page.getByRole('button', { name: 'Trail Mug' }).click();
    await page.getByRole('heading', { name: 'Trail Mug', level: 1 }).waitFor();
    const variants = await page.getByRole('table').first().locator('tbody tr').allTextContents();
    expect(variants.map((v) => v.slice(0, 4))).toEqual([String(MUG * 10 + 1), String(MUG * 10 + 2)]);
    expect(await page.getByRole('main').textContent()).toContain('wool'); // the metafield
    // Customer 77 bought the mug and the stakes: the model's raw material names them as neighbours.
    const neighbours = page.getByRole('region', { name: 'Bought by the same customers' });
    await neighbours.locator('tbody tr').first().waitFor();
    expect(await neighbours.locator('tbody tr').allTextContents()).toEqual(['Tent Stakes11.000']);
    await neighbours.getByRole('button', { name: 'Tent Stakes' }).click();
    await page.getByRole('heading', { name: 'Tent Stakes', level: 1 }).waitFor();

    await page.getByRole('link', { name: 'Insights' }).click();
    const topSellers = page.getByRole('figure', { name: /^Top sellers/ });
    await topSellers.locator('svg').first().waitFor();
    await topSellers.locator('summary').click();
    expect(await topSellers.locator('tbody tr').allTextContents()).toEqual(['Tent Stakes4', 'Trail Mug1']);
    await screenshot(page, 'console-insights');

    await page.getByRole('link', { name: 'Campaigns' }).click();
    const all = page.getByRole('figure', { name: 'All campaigns' });
    await all.locator('svg').first().waitFor();
    expect(await page.getByRole('main').textContent()).toContain('COMEBACK');
    expect(errors).toEqual([]);
    await page.close();
  });
});
