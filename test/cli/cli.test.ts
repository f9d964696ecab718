import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { productInput } from '../helpers/fixtures.js';
import { serveFromSources } from '../helpers/serve.js';

/** What the printed curl commands answer: product lists (data is an array) or a reactivation context (an object). */
type PrintedCurlAnswer = {
  data: unknown;
  metadata: { matched_rules: { name: string; output: { products: { product_id: number }[] }[] }[] };
};

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'rebound-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const baseEnv = (db: string) => ({
  ...process.env,
  DATABASE_URL: `sqlite:${join(work, db)}`,
  LOG_LEVEL: 'silent',
  REBOUND_ADMIN_TOKEN: 'cli-test-operator-token-0123456789',
});

/** Runs `rebound <args>` from the sources, as `npm run rebound` would from the build. */
function rebound(args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 180_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('rebound CLI', () => {
  it('creates a shop, imports a folder into it, and rotates its keys', () => {
    const env = baseEnv('cli.db');
    const first = rebound(['migrate'], env);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^Applied \d+ migrations \(2026_11_22_0001_init to \S+\); the schema is up to date\.\n$/);
    expect(rebound(['migrate'], env)).toMatchObject({
      code: 0,
      out: 'Database schema is up to date; no migration to apply.\n',
    });
    const created = rebound(
      [
        'shops',
        'create',
        '--handle',
        'cli-shop',
        '--name',
        'CLI Shop',
        '--timezone',
        'Europe/Paris',
        '--scopes',
        'read_markets',
      ],
      env,
    );
    expect(created.code, created.err).toBe(0);
    expect(created.out).toMatch(/public key: rb_pub_\S+\nprivate key: rb_priv_\S+/);

    const dir = mkdtempSync(join(work, 'import-'));
    writeFileSync(join(dir, 'products.json'), JSON.stringify([productInput(1), productInput(2)]));
    writeFileSync(
      join(dir, 'collections.ndjson'),
      `${JSON.stringify({ id: 5, title: 'C', handle: 'c', products: [{ product_id: 2 }] })}\n`,
    );
    writeFileSync(
      join(dir, 'orders.json'),
      JSON.stringify([{ id: 1, created_at: '2026-11-01T00:00:00Z', line_items: [{ product_id: 1, quantity: 1 }] }]),
    );
    writeFileSync(join(dir, 'rulesets.json'), '[]');
    const imported = rebound(['import', dir, '--shop', 'cli-shop'], env);
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out).toContain('products: {"upserted":2}');
    expect(imported.out).toContain('collections: {"upserted":1}');
    expect(imported.out).toContain('orders: {"upserted":1,"erased":0}');
    expect(imported.out).toContain('rulesets: skipped');

    writeFileSync(join(dir, 'products.json'), JSON.stringify([productInput(3, { variants: [] })]));
    const rejected = rebound(['import', dir, '--shop', 'cli-shop'], env);
    expect(rejected.code).toBe(1);
    expect(rejected.err).toContain('Row 0 of the products: variants');

    // A mistake in the last file leaves the first ones unwritten; one only the writes find is told with
    // what was imported before it.
    const later = mkdtempSync(join(work, 'import-'));
    writeFileSync(join(later, 'products.json'), JSON.stringify([productInput(4)]));
    writeFileSync(join(later, 'orders.json'), JSON.stringify([{ id: 2, line_items: [] }]));
    const early = rebound(['import', later, '--shop', 'cli-shop'], env);
    expect(early.code).toBe(1);
    expect(early.err).toBe(
      `rebound: ${join(later, 'orders.json')}: Row 0 of the orders: created_at: is required. ` +
        '(nothing was imported)\n',
    );
    writeFileSync(join(later, 'orders.json'), '{"id": 2}');
    expect(rebound(['import', later, '--shop', 'cli-shop'], env).err).toBe(
      `rebound: ${join(later, 'orders.json')} must hold a JSON array of orders (or be NDJSON, one per line).\n`,
    );
    const database = new SQLite(join(work, 'cli.db'), { readonly: true });
    expect(database.prepare('select count(*) as n from products where id = 4').get()).toEqual({ n: 0 });
    database.close();
    rmSync(join(later, 'orders.json'));
    writeFileSync(
      join(later, 'collections.json'),
      JSON.stringify([{ id: 6, title: 'D', handle: 'd', products: [{ product_id: 99 }] }]),
    );
    const unknown = rebound(['import', later, '--shop', 'cli-shop'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/^rebound: .*collections\.json: .*99.* \(already imported: products\)\n$/);

    const mistyped = join(work, 'no-such-folder');
    expect(rebound(['import', mistyped, '--shop', 'cli-shop'], env)).toMatchObject({
      code: 1,
      err: `rebound: ${mistyped} is not a folder.\n`,
    });

    const rotated = rebound(['keys', 'cli-shop'], env);
    expect(rotated.code).toBe(0);
    expect(rotated.out).toMatch(/New keys for cli-shop \(the replaced ones work until .+\):\npublic key: rb_pub_/);
    // A prefix shorter than the key list's 16 characters is refused, as the HTTP route refuses it.
    const short = rebound(['keys', 'revoke', 'cli-shop', 'rb_pub_ab'], env);
    expect(short.code).toBe(1);
    expect(short.err).toBe(
      'rebound: keys revoke needs the whole key or its first 16 characters or more, got "rb_pub_ab".\n',
    );
    expect(rebound(['keys', 'no-such-shop'], env)).toMatchObject({
      code: 1,
      err: 'rebound: Shop no-such-shop not found.\n',
    });

    // An operator lists the shops, and deletes one with everything stored for it.
    expect(rebound(['shops', 'list'], env).out).toMatch(/^cli-shop\t\d+\tCLI Shop$/m);
    expect(rebound(['shops', 'delete', 'cli-shop'], env).code).toBe(1);
    const deleted = rebound(['shops', 'delete', 'cli-shop', '--yes'], env);
    expect(deleted).toMatchObject({ code: 0 });
    expect(deleted.out).toMatch(/^Shop cli-shop \(id \d+\) deleted, with everything stored for it\.\n$/);
    expect(rebound(['shops', 'list'], env).out).not.toContain('cli-shop');
    expect(rebound(['keys', 'list', 'cli-shop'], env).err).toBe('rebound: Shop cli-shop not found.\n');
  });

  it('explains bad usage and bad configuration in one line', () => {
    const unknown = rebound(['frobnicate'], baseEnv('x.db'));
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('unknown command "frobnicate"');
    expect(unknown.err).toContain('Usage: rebound <command>');
    // Asked for, the usage is an answer (exit 0); with no command, a mistake (exit 1).
    const help = rebound(['--help'], baseEnv('x.db'));
    expect(help).toMatchObject({ code: 0, out: expect.stringContaining('inventory.json') });
    expect(rebound([], baseEnv('x.db')).code).toBe(1);
    const badConfig = rebound(['migrate'], { ...baseEnv('x.db'), PORT: 'http' });
    expect(badConfig).toMatchObject({
      code: 1,
      err: 'rebound: PORT must be a whole number from 0 to 65535, got "http".\n',
    });
    expect(rebound(['import', work], baseEnv('x.db')).err).toContain('import needs a folder and --shop');
  });

  // PORT=0 without REBOUND_PUBLIC_URL: the printed commands must name the port the system chose.
  it('serves the demo shop on an empty database, prints working curl commands, and drains on SIGTERM', async () => {
    const { child, output } = serveFromSources({
      ...baseEnv('serve.db'),
      PORT: '0',
      HOST: '127.0.0.1',
      REBOUND_DEMO: 'true',
      REBOUND_PUBLIC_URL: '',
      REBOUND_ADMIN_TOKEN: '',
    });
    const port = () => /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output())?.[1];
    while (
      !output().includes('API docs:') ||
      !port() ||
      !(await fetch(`http://127.0.0.1:${port()}/readyz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      // No deadline of its own: the test's limit bounds a hang; a slow machine only waits longer.
      if (child.exitCode !== null) throw new Error(`server did not start:\n${output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(output()).toMatch(/Admin token \(shown once\): rb_admin_\S+/);
    expect(output()).toMatch(
      new RegExp(
        'Demo shop "demo" created: 1000 products, 15 collections, 300 customers, 2 markets, \\d+ orders, ' +
          '5 rulesets, \\d+ events, 40 billing customers, \\d+ experiment visitors, \\d+ tracked events, ' +
          '\\d+ attributed orders, \\d+ reactivations\\.',
      ),
    );
    const curls = [...output().matchAll(/curl '([^']+)'/g)].map((m) => m[1]!);
    expect(curls).toHaveLength(5);
    const [upsell, gift, vip, market, reactivate] = await Promise.all(
      curls.map((url) =>
        fetch(url).then(async (r) => ({ status: r.status, body: (await r.json()) as PrintedCurlAnswer })),
      ),
    );
    expect(upsell).toMatchObject({ status: 200 });
    expect(upsell!.body.metadata.matched_rules[0]!.name).toMatch(/^Accessories for /);
    const accessories = upsell!.body.metadata.matched_rules[0]!.output[0]!.products.map((p) => p.product_id);
    expect((upsell!.body.data as { id: number }[]).slice(0, 3).map((p) => p.id)).toEqual(accessories);
    expect(gift!.body.metadata.matched_rules.map((r) => r.name)).toEqual(['Big cart gets gift ideas']);
    expect((gift!.body.data as unknown[]).length).toBeGreaterThan(0);
    // The customer it names is one of the demo shop's VIPs, whom the catch-all ruleset treats apart.
    expect(vip!.body.metadata.matched_rules.map((r) => r.name)).toEqual(['VIP customers see the gift collection']);
    expect((vip!.body.data as unknown[]).length).toBeGreaterThan(0);
    expect(market!.body.data).toHaveLength(2);
    expect(reactivate).toMatchObject({ status: 200 });
    expect(
      (reactivate!.body.data as { billing_subscriptions: unknown[] }).billing_subscriptions.length,
    ).toBeGreaterThan(0);
    expect((reactivate!.body.data as { service_reactivate_all_link: string }).service_reactivate_all_link).toContain(
      '/billing/reactivate?merchant_token=demo',
    );
    const demoUrl = /Storefront widget demo: (\S+)/.exec(output())?.[1];
    expect(demoUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port()}/widget-demo\\?key=rb_pub_`));
    const demoPage = await fetch(demoUrl!);
    expect(demoPage.status).toBe(200);
    expect(await demoPage.text()).toContain('data-endpoint="trending_products"');

    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
