import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { UNSIGNED_EMAIL } from '../../src/http/plugins/customer-signature.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { productInput } from '../helpers/fixtures.js';

/**
 * A leaked private key must be revocable, must not outlive rotations,
 * and must not lift its own limits (docs/operations.md, "Keys").
 */
describe.each(backends())('keys, settings and customer signatures on $name', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(backend);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const products = (key: string) => t.app.inject(`/api/v1/products/static?key=${key}&ids=1`);

  it('revokes a key at once (operator token only), by the prefix the key list shows', async () => {
    const shop = await t.createShop('revoked');
    await t.admin('PUT', '/admin/v1/shops/revoked/products', [productInput(1)]);
    expect((await products(shop.public)).statusCode).toBe(200);
    const listed = (await t.admin('GET', '/admin/v1/shops/revoked/keys')).json().data;
    expect(listed.map((k: { kind: string; state: string }) => `${k.kind}:${k.state}`).sort()).toEqual([
      'private:current',
      'public:current',
    ]);
    const prefix = shop.public.slice(0, 19);
    expect(listed.find((k: { kind: string }) => k.kind === 'public').key_prefix).toBe(prefix);

    const byShopKey = await t.admin(
      'POST',
      '/admin/v1/shops/revoked/keys/revoke',
      { key_prefix: prefix },
      shop.private,
    );
    expect(byShopKey.statusCode).toBe(403);
    const revoked = await t.admin('POST', '/admin/v1/shops/revoked/keys/revoke', { key_prefix: prefix });
    expect(revoked.json()).toEqual({ revoked: 1 });
    expect((await products(shop.public)).statusCode).toBe(401);
    expect((await t.admin('POST', '/admin/v1/shops/revoked/keys/revoke', { key_prefix: prefix })).statusCode).toBe(400);
    expect(
      (await t.admin('POST', '/admin/v1/shops/revoked/keys/revoke', { key_prefix: 'not a prefix' })).statusCode,
    ).toBe(422);
  });

  it(
    'ends the asking key and every older generation when keys rotate, ' + 'so a leaked key cannot keep itself alive',
    async () => {
      const shop = await t.createShop('rotated');
      const first = await t.admin('POST', '/admin/v1/shops/rotated/keys/rotate', undefined, shop.private);
      expect(first.statusCode).toBe(200);
      const second = first.json().keys;
      // The key that asked ended; the public key it replaced keeps its grace period for deployed pages.
      expect((await t.admin('GET', '/admin/v1/shops/rotated', undefined, shop.private)).statusCode).toBe(401);
      expect((await t.app.inject(`/api/v1/products/trending_products?key=${shop.public}`)).statusCode).toBe(200);
      // The operator rotates again: the first generation's grace ends now, the second gets one.
      await t.admin('POST', '/admin/v1/shops/rotated/keys/rotate');
      expect((await t.app.inject(`/api/v1/products/trending_products?key=${shop.public}`)).statusCode).toBe(401);
      expect((await t.app.inject(`/api/v1/products/trending_products?key=${second.public}`)).statusCode).toBe(200);
      expect((await t.admin('GET', '/admin/v1/shops/rotated', undefined, second.private)).statusCode).toBe(200);
    },
  );

  it(
    'lets only the operator change scopes and rate limits; a shop ' +
      "key keeps the operator's limits when it changes other settings",
    async () => {
      const shop = await t.createShop('limits');
      expect(
        (await t.admin('PATCH', '/admin/v1/shops/limits', { settings: { rate_limit_public_per_minute: 5 } }))
          .statusCode,
      ).toBe(200);
      for (const body of [
        { scopes: ['read_markets'] },
        { settings: { rate_limit_public_per_minute: 1_000_000 } },
        { settings: { rate_limit_private_per_minute: 9 } },
      ]) {
        const res = await t.admin('PATCH', '/admin/v1/shops/limits', body, shop.private);
        expect(res.statusCode, JSON.stringify(body)).toBe(403);
        expect(res.json().error).toBe("Only the operator token changes a shop's scopes and rate limits.");
      }
      // Sending back the operator's values unchanged (a whole settings object) is allowed.
      expect(
        (
          await t.admin(
            'PATCH',
            '/admin/v1/shops/limits',
            { scopes: [], settings: { rate_limit_public_per_minute: 5 } },
            shop.private,
          )
        ).statusCode,
      ).toBe(200);
      const own = await t.admin(
        'PATCH',
        '/admin/v1/shops/limits',
        { name: 'Renamed', settings: { trending_window_days: 10 } },
        shop.private,
      );
      expect(own.statusCode).toBe(200);
      expect(own.json().shop.settings).toEqual({ trending_window_days: 10, rate_limit_public_per_minute: 5 });
      expect(own.json().shop.scopes).toEqual([]);
    },
  );

  it('requires customer_sig with shop_customer_id on public keys when the shop asks for it', async () => {
    const shop = await t.createShop('signed');
    await t.admin('PUT', '/admin/v1/shops/signed/products', [productInput(1)]);
    await t.admin('PUT', '/admin/v1/shops/signed/orders', [
      {
        id: 1,
        created_at: new Date().toISOString(),
        customer: { id: 77 },
        line_items: [{ product_id: 1, quantity: 1 }],
      },
    ]);
    const purchased = (query: string, key = shop.public) =>
      t.app.inject(`/api/v1/products/purchased?key=${key}&shop_customer_id=77${query}`);
    expect((await purchased('')).statusCode).toBe(200); // off by default, as the original API
    expect(
      (
        await t.admin(
          'PATCH',
          '/admin/v1/shops/signed',
          { settings: { require_customer_signature: true } },
          shop.private,
        )
      ).statusCode,
    ).toBe(200);
    const secret = (await t.admin('GET', '/admin/v1/shops/signed/signing-secret', undefined, shop.private)).json()
      .signing_secret;
    const sig = createHmac('sha256', secret).update('77').digest('hex');
    const refused = await purchased('');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'customer_sig is missing or wrong for shop_customer_id.',
      code: 'customer_signature',
    });
    expect((await purchased(`&customer_sig=${sig.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}`)).statusCode).toBe(
      403,
    );
    const ok = await purchased(`&customer_sig=${sig.toUpperCase()}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.map((p: { id: number }) => p.id)).toEqual([1]);
    // The signature is not part of the cached answer's key, and a server-side private key needs none.
    expect((await purchased(`&customer_sig=${sig}`)).headers['x-cache']).toBe('hit');
    expect((await purchased('', shop.private)).statusCode).toBe(200);
    const event = await t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${shop.public}&subject=user&verb=viewed` +
        '&noun=product&shop_product_handle=product-1&shop_customer_id=77',
    });
    expect(event.statusCode).toBe(403);
    // An e-mail names a customer too: an anonymous event gives it only for a signed customer.
    const byEmail = (extra: string) =>
      t.app.inject({
        method: 'POST',
        url:
          `/api/v1/analytics/event?key=${shop.public}&subject=user&verb=viewed&noun=product` +
          '&shop_product_handle=product-1&uuid=a1a1a1a1-0000-4000-8000-0000000000a1' +
          `&subject_email=eve%40example.com${extra}`,
      });
    const unsigned = await byEmail('');
    expect(unsigned.statusCode).toBe(403);
    expect(unsigned.json()).toEqual({ error: UNSIGNED_EMAIL, code: 'customer_signature' });
    expect((await byEmail(`&shop_customer_id=77&customer_sig=${sig}`)).statusCode).toBe(200);
    expect((await byEmail('')).statusCode).toBe(403);
    expect(
      (await t.app.inject(`/api/v1/custom/id/1?key=${shop.public}&shop_customer_id=77&customer_sig=${sig}`)).statusCode,
    ).toBe(404); // signed: on to the ruleset lookup
    // A PATCH of another setting merges into the shop's: the signatures stay required.
    const patch = (settings: Record<string, unknown>) =>
      t.admin('PATCH', '/admin/v1/shops/signed', { settings }, shop.private);
    const other = await patch({ cart_subtotal_unit: 'minor' });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().shop.settings).toMatchObject({ require_customer_signature: true, cart_subtotal_unit: 'minor' });
    expect((await purchased('&bust_cache=yes')).statusCode).toBe(403);
    // null takes a setting back to its default.
    const cleared = await patch({ require_customer_signature: null });
    expect(cleared.json().shop.settings).toEqual({ cart_subtotal_unit: 'minor' });
    expect((await purchased('&bust_cache=yes')).statusCode).toBe(200);
  });

  it('marks every answer nosniff, JSON and HTML alike', async () => {
    for (const url of ['/healthz', '/api/v1/sources', '/api/v1/products/static', '/widget-demo', '/nowhere']) {
      expect((await t.app.inject(url)).headers['x-content-type-options'], url).toBe('nosniff');
    }
  });
});
