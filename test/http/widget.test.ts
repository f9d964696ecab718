import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { AUTH_FAILURES_PER_MINUTE } from '../../src/http/plugins/auth-failures.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_FILE, widgetRoutes } from '../../src/http/routes/widget.js';
import { backends } from '../helpers/backends.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { productInput } from '../helpers/fixtures.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The attributes of each widget script tag of a page, in page order. */
function widgetTags(html: string): Record<string, string>[] {
  return [...html.matchAll(/<script\b([^>]*)><\/script>/g)].map((m) => {
    const attrs: Record<string, string> = {};
    for (const a of m[1]!.matchAll(/([\w-]+)(?:="([^"]*)")?/g)) attrs[a[1]!] = a[2] ?? '';
    return attrs;
  });
}

describe('GET /widget.js', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rebound-widget-'));
  const noShops = { keys: { lookupFresh: async () => null }, catalog: { ensure: async () => undefined } };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('looks for the build under the repository root', () => {
    expect(WIDGET_FILE).toBe(join(ROOT, 'dist', 'widget', 'widget.js'));
  });

  it(
    'serves the built script once read, with caching and cross-origin ' + 'headers, and answers 304 to its ETag',
    async () => {
      const file = join(dir, 'built.js');
      writeFileSync(file, 'console.log("v1");');
      const app = Fastify();
      widgetRoutes(app, noShops, { scriptFile: file });
      const first = await app.inject('/widget.js');
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(first.headers['cache-control']).toMatch(/^public, max-age=\d{2,3}$/);
      expect(first.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(first.body).toBe('console.log("v1");');
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      // Read once and kept: a rebuild is picked up by a restart, not mid-flight.
      writeFileSync(file, 'console.log("v2");');
      expect((await app.inject('/widget.js')).body).toBe('console.log("v1");');
      const cached = await app.inject({ url: '/widget.js', headers: { 'if-none-match': etag } });
      expect(cached.statusCode).toBe(304);
      expect(cached.body).toBe('');
      expect((await app.inject({ url: '/widget.js', headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);
      // Browsers get the gzip made once with the script, the same bytes inside.
      const zipped = await app.inject({ url: '/widget.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toBe('accept-encoding');
      expect(gunzipSync(zipped.rawPayload).toString()).toBe('console.log("v1");');
      expect(first.headers['content-encoding']).toBeUndefined();
      // Each encoding has its own tag; a list of tags, a weak one or `*` match; gzip;q=0 refuses gzip.
      const zippedTag = zipped.headers.etag as string;
      expect(zippedTag).not.toBe(etag);
      const revalidate = (ifNoneMatch: string, acceptEncoding = 'gzip') =>
        app
          .inject({ url: '/widget.js', headers: { 'if-none-match': ifNoneMatch, 'accept-encoding': acceptEncoding } })
          .then((r) => r.statusCode);
      expect(await revalidate(`"x", W/${zippedTag}`)).toBe(304);
      expect(await revalidate('*')).toBe(304);
      expect(await revalidate(etag)).toBe(200); // the plain tag does not validate the gzip bytes
      const refused = await app.inject({ url: '/widget.js', headers: { 'accept-encoding': 'gzip;q=0, br' } });
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(refused.body).toBe('console.log("v1");');
      await app.close();
    },
  );

  it('answers 503 with how to build it while the file is missing, and serves it once built', async () => {
    const file = join(dir, 'later.js');
    const app = Fastify();
    widgetRoutes(app, noShops, { scriptFile: file });
    const missing = await app.inject('/widget.js');
    expect(missing.statusCode).toBe(503);
    expect(missing.json().error).toContain('npm run build');
    expect(missing.headers['cache-control']).toBe('no-store');
    writeFileSync(file, '/* built */');
    expect((await app.inject('/widget.js')).body).toBe('/* built */');
    await app.close();
  });
});

describe('GET /widget-demo', () => {
  const backend = backends()[0]!;
  let t: TestApp;
  let key: string;
  let privateKey: string;
  let emptyKey: string;
  let hostileKey: string;
  let enabledRuleset: number;

  beforeAll(async () => {
    t = await startApp(backend);
    ({ public: key, private: privateKey } = await t.createShop('shop', { currency: 'EUR' }));
    await t.admin('PUT', '/admin/v1/shops/shop/products', [
      productInput(1),
      productInput(2),
      productInput(3, { title: 'Best Seller Boots', body_html: '<p>Warm &amp; <b>dry</b></p>' }),
      productInput(4),
    ]);
    await t.admin('PUT', '/admin/v1/shops/shop/orders', [
      {
        id: 1,
        created_at: new Date().toISOString(),
        line_items: [
          { product_id: 3, quantity: 4 },
          { product_id: 2, quantity: 1 },
        ],
      },
    ]);
    const ruleset = (enabled: boolean) => ({
      name: enabled ? 'on' : 'off',
      enabled,
      rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 4 }] }] }],
    });
    expect((await t.admin('POST', '/admin/v1/shops/shop/rulesets', ruleset(false))).statusCode).toBe(201);
    const created = await t.admin('POST', '/admin/v1/shops/shop/rulesets', ruleset(true));
    enabledRuleset = created.json().ruleset.id;

    emptyKey = (await t.createShop('empty')).public;
    hostileKey = (await t.createShop('hostile', { name: 'Evil <b>"Shop"</b> & Co' })).public;
    await t.admin('PUT', '/admin/v1/shops/hostile/products', [
      productInput(9, {
        title: '"><script>alert(1)</script>',
        vendor: '<img src=x onerror=alert(2)>',
        body_html: '<p>&lt;script&gt;alert(3)&lt;/script&gt;</p>',
        images: [
          { id: 97, src: 'https://img.example/9.png?a="b"&c=<d>', alt: '" onload="alert(4)', width: 10, height: 10 },
        ],
      }),
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await backend.cleanup();
  });

  it('renders the best seller with the first enabled ruleset, trending and recently viewed widgets', async () => {
    const res = await t.app.inject(`/widget-demo?key=${key}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toMatch(/img-src[^;]*'self'[^;]* https: http: data:/);
    expect(csp).toContain("default-src 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.body).toContain('<h1>Best Seller Boots</h1>');
    expect(res.body).toContain('€10.00');
    expect(res.body).toContain('Warm &amp; dry');
    const [ruleset, trending, viewed, ...rest] = widgetTags(res.body);
    expect(rest).toEqual([]);
    const productUrl = `/widget-demo?key=${key}&amp;product={handle}`;
    expect(ruleset).toMatchObject({
      src: '/widget.js',
      'data-key': key,
      'data-ruleset': String(enabledRuleset),
      'data-product-ids': '3',
      'data-variant-ids': '31',
      'data-product-handle': 'product-3',
      'data-currency': 'EUR',
      async: '',
    });
    expect(trending).toMatchObject({
      src: '/widget.js',
      'data-key': key,
      'data-endpoint': 'trending_products',
      'data-product-ids': '3',
      'data-product-handle': 'product-3',
    });
    expect(viewed).toMatchObject({
      src: '/widget.js',
      'data-key': key,
      'data-endpoint': 'viewed',
      'data-product-handle': 'product-3',
    });
    expect(viewed!['data-product-ids']).toBeUndefined();
    expect(res.body.match(/data-product-url="([^"]*)"/g)).toEqual(Array(3).fill(`data-product-url="${productUrl}"`));
  });

  it('shows the product a card link asks for, and falls back to the best seller for an unknown handle', async () => {
    const asked = await t.app.inject(`/widget-demo?key=${key}&product=product-2`);
    expect(asked.body).toContain('<h1>Product 2</h1>');
    expect(widgetTags(asked.body)[0]).toMatchObject({ 'data-product-ids': '2', 'data-product-handle': 'product-2' });
    const unknown = await t.app.inject(`/widget-demo?key=${key}&product=${encodeURIComponent('nope"<>')}`);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toContain('<h1>Best Seller Boots</h1>');
  });

  it('shows the lists alone for a shop with nothing to show and no ruleset', async () => {
    const res = await t.app.inject(`/widget-demo?key=${emptyKey}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('no published product in stock');
    expect(widgetTags(res.body).map((w) => w['data-endpoint'] ?? `ruleset ${w['data-ruleset']}`)).toEqual([
      'trending_products',
      'viewed',
    ]);
  });

  it('explains how to open it without a key, with a form to paste one', async () => {
    for (const url of ['/widget-demo', '/widget-demo?key=']) {
      const res = await t.app.inject(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toContain("form-action 'self'");
      expect(res.body).toContain('/widget-demo?key=&lt;the public key printed at start-up&gt;');
      expect(res.body).toMatch(/<form method="get" action="\/widget-demo">.*<input name="key"/);
      expect(widgetTags(res.body)).toEqual([]);
    }
  });

  it('refuses unknown, malformed, repeated and private keys with a 4xx page, never echoing them', async () => {
    const unknown = await t.app.inject('/widget-demo?key=rb_pub_thisKeyDoesNotExist000000000000');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toContain('No shop has this public key');
    expect(unknown.body).toContain('<form');
    for (const bad of ['<script>alert(1)</script>', 'short', 'x'.repeat(129), 'rb_pub_a b c d e']) {
      const res = await t.app.inject(`/widget-demo?key=${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).not.toContain(bad);
    }
    expect((await t.app.inject(`/widget-demo?key=${key}&key=${key}`)).statusCode).toBe(400);
    const priv = await t.app.inject(`/widget-demo?key=${privateKey}`);
    expect(priv.statusCode).toBe(403);
    expect(priv.body).toContain('private key');
    expect(priv.body).not.toContain(privateKey);
  });

  it('counts an unknown key as a failed authentication, so keys cannot be tried without end', async () => {
    const tryKey = (i: number) =>
      t.app.inject({ url: `/widget-demo?key=rb_pub_guess${String(i).padStart(27, '0')}`, remoteAddress: '10.9.9.9' });
    let answer = await tryKey(0);
    // Failures count in fixed minutes: up to two minutes' worth before the address is refused.
    for (let i = 1; i <= 2 * AUTH_FAILURES_PER_MINUTE + 1 && answer.statusCode === 401; i++) answer = await tryKey(i);
    expect(answer.statusCode).toBe(429);
    // Its real key too, until the minute ends; another address is served.
    expect((await t.app.inject({ url: `/widget-demo?key=${key}`, remoteAddress: '10.9.9.9' })).statusCode).toBe(429);
    expect((await t.app.inject({ url: `/widget-demo?key=${key}`, remoteAddress: '10.9.9.8' })).statusCode).toBe(200);
  });

  it('escapes shop data everywhere it appears', async () => {
    const res = await t.app.inject(`/widget-demo?key=${hostileKey}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/<script>alert|<img src=x|onload="alert|<b>"Shop"/);
    expect(res.body).toContain('<h1>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(res.body).toContain('Evil &lt;b&gt;&quot;Shop&quot;&lt;/b&gt; &amp; Co');
    expect(res.body).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(res.body).toContain('&lt;script&gt;alert(3)&lt;/script&gt;');
    expect(res.body).toContain(
      'src="https://img.example/9.png?a=&quot;b&quot;&amp;c=&lt;d&gt;" alt="&quot; onload=&quot;alert(4)"',
    );
    // The only scripts on the page are the widget tags.
    expect([...res.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0].slice(0, 27))).toEqual(
      Array(2).fill('<script src="/widget.js" da'),
    );
  });

  it('is served by the real app, and neither route is in the OpenAPI document', async () => {
    const script = await t.app.inject('/widget.js');
    if (existsSync(WIDGET_FILE)) {
      expect(script.statusCode).toBe(200);
      expect(script.rawPayload.equals(readFileSync(WIDGET_FILE))).toBe(true);
    } else {
      expect(script.statusCode).toBe(503);
    }
    const paths = Object.keys((await t.app.inject('/api/v1/openapi.json')).json().paths);
    expect(paths.length).toBeGreaterThan(5);
    expect(paths.filter((p) => p === '/widget.js' || p.startsWith('/widget-demo'))).toEqual([]);
    // The stored widgets' API is documented like any other.
    expect(paths).toContain('/api/v1/widgets/{id}');
  });
});
