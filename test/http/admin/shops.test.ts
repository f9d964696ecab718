import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

describe.each(backends())('admin shops and keys on $name', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(backend);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it('creates a shop, shows its keys once, and never shows secrets', async () => {
    const res = await t.admin('POST', '/admin/v1/shops', {
      handle: 'north',
      name: 'North',
      timezone: 'Europe/Oslo',
      currency: 'NOK',
      scopes: ['read_markets'],
      public_url: 'https://north.example/',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.keys.public).toMatch(/^rb_pub_/);
    expect(body.keys.private).toMatch(/^rb_priv_/);
    expect(body.shop).toMatchObject({
      handle: 'north',
      name: 'North',
      timezone: 'Europe/Oslo',
      currency: 'NOK',
      scopes: ['read_markets'],
      public_url: 'https://north.example',
    });
    const shown = await t.admin('GET', '/admin/v1/shops/north');
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain('signing_secret');
    expect(shown.body).not.toContain(body.keys.public);
    expect(shown.json().shop).toMatchObject({ handle: 'north', webhook_secret_set: false });
  });

  it('refuses a taken handle with 409 and invalid shops with 422 naming the field', async () => {
    await t.createShop('taken');
    const dup = await t.admin('POST', '/admin/v1/shops', { handle: 'taken', name: 'Again' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toContain('taken');
    const cases: [unknown, string][] = [
      [{ handle: 'Bad Handle', name: 'x' }, 'handle'],
      [{ handle: 'ok-handle', name: 'x', timezone: 'Mars/Olympus' }, 'timezone'],
      [{ handle: 'ok-handle', name: 'x', currency: 'dollars' }, 'currency'],
      // Three capitals that name no currency.
      [{ handle: 'ok-handle', name: 'x', currency: 'XYZ' }, 'currency'],
      [{ handle: 'ok-handle', name: 'x', colour: 'red' }, 'colour'],
      [{ handle: 'ok-handle' }, 'name'],
      [{ handle: 'ok-handle', name: 'x', public_url: 'ftp://x' }, 'public_url'],
      // Links are made by appending a path: a fragment or query would swallow it, and its signature.
      [{ handle: 'ok-handle', name: 'x', public_url: 'https://shop.example/#frag?' }, 'fragment'],
      [{ handle: 'ok-handle', name: 'x', public_url: 'https://shop.example/?ref=1' }, 'query'],
      [{ handle: 'ok-handle', name: 'x', public_url: 'https://shop.example/?' }, 'query'],
      [{ handle: 'ok-handle', name: 'x', public_url: 'https://admin:pw@shop.example' }, 'password'],
      [{ handle: 'ok-handle', name: 'x', public_url: `https://shop.example/${'a'.repeat(2048)}` }, '2,048'],
      // A scope nothing reads, misspelt or not, would be kept and do nothing.
      [{ handle: 'ok-handle', name: 'x', scopes: ['read_market'] }, 'scopes[0]'],
    ];
    for (const [body, field] of cases) {
      const res = await t.admin('POST', '/admin/v1/shops', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().error).toContain(field);
    }
    expect((await t.admin('GET', '/admin/v1/shops/ok-handle')).statusCode).toBe(404);
    const patched = await t.admin('PATCH', '/admin/v1/shops/taken', { scopes: ['read_markets', 'write_everything'] });
    expect(patched.statusCode).toBe(422);
    expect(patched.json().field).toBe('scopes[1]');
  });

  it('needs a bearer token; a private key acts only on its own shop', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/admin/v1/shops' })).statusCode).toBe(401);
    expect((await t.admin('GET', '/admin/v1/shops', undefined, 'wrong-token')).json()).toEqual({
      error: 'Invalid admin credentials.',
      code: 'invalid_credentials',
    });
    const own = await t.createShop('own');
    const other = await t.createShop('someone-else');
    expect((await t.admin('GET', '/admin/v1/shops/own', undefined, own.private)).statusCode).toBe(200);
    const foreign = await t.admin('GET', '/admin/v1/shops/someone-else', undefined, own.private);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'Shop someone-else not found.', code: 'not_found' });
    expect((await t.admin('GET', '/admin/v1/shops/no-such-shop', undefined, own.private)).json()).toEqual({
      error: 'Shop no-such-shop not found.',
      code: 'not_found',
    });
    expect(
      (await t.admin('PUT', '/admin/v1/shops/someone-else/products', [productInput(1)], own.private)).statusCode,
    ).toBe(404);
    expect((await t.admin('GET', '/admin/v1/shops/own', undefined, own.public)).statusCode).toBe(401);
    expect((await t.admin('POST', '/admin/v1/shops', { handle: 'x', name: 'x' }, own.private)).statusCode).toBe(403);
    expect((await t.admin('GET', '/admin/v1/shops', undefined, other.private)).statusCode).toBe(403);
  });

  it('changes settings with PATCH and validates them', async () => {
    await t.createShop('patchy');
    const res = await t.admin('PATCH', '/admin/v1/shops/patchy', {
      name: 'Patchy',
      timezone: 'Asia/Tokyo',
      webhook_secret: 'a-long-webhook-secret',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().shop).toMatchObject({ name: 'Patchy', timezone: 'Asia/Tokyo', webhook_secret_set: true });
    expect(res.body).not.toContain('a-long-webhook-secret');
    expect((await t.admin('PATCH', '/admin/v1/shops/patchy', { timezone: 'Nowhere/Town' })).statusCode).toBe(422);
    expect((await t.admin('PATCH', '/admin/v1/shops/patchy', { handle: 'renamed' })).statusCode).toBe(422);
    // A name of blanks would show as nothing in the console's header.
    const blank = await t.admin('PATCH', '/admin/v1/shops/patchy', { name: '   ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().field).toBe('name');
    // A secret pasted with the blanks around it would refuse every delivery signed with the real one.
    const pasted = await t.admin('PATCH', '/admin/v1/shops/patchy', { webhook_secret: '   a-long-webhook-secret ' });
    expect(pasted.statusCode).toBe(422);
    expect(pasted.json()).toMatchObject({ field: 'webhook_secret', error: expect.stringContaining('blanks') });
    expect(
      (await t.admin('PATCH', '/admin/v1/shops/patchy', { billing_webhook_secret: ' '.repeat(20) })).statusCode,
    ).toBe(422);
    expect((await t.admin('GET', '/admin/v1/shops/patchy')).json().shop.timezone).toBe('Asia/Tokyo');
  });

  it('rotates keys; the old ones keep working through the grace period', async () => {
    const shop = await t.createShop('rotor');
    await t.admin('PUT', '/admin/v1/shops/rotor/products', [productInput(1)]);
    const rotated = await t.admin('POST', '/admin/v1/shops/rotor/keys/rotate');
    expect(rotated.statusCode).toBe(200);
    const { keys, previous_keys_expire_at } = rotated.json();
    expect(keys.public).not.toBe(shop.public);
    expect(Date.parse(previous_keys_expire_at)).toBeGreaterThan(Date.now() + 23 * 3600_000);
    for (const key of [shop.public, keys.public]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/products/static?ids=1&key=${key}` });
      expect(res.json().data).toHaveLength(1);
    }
    expect((await t.admin('GET', '/admin/v1/shops/rotor', undefined, keys.private)).statusCode).toBe(200);
  });
});
