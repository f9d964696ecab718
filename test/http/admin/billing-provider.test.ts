import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { TEST_SECRET_KEY } from '../../helpers/billing.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const TOKEN = 'provider-api-token-do-not-show';

describe.each(backends())('billing provider settings on $name', (backend) => {
  let t: TestApp;
  let keys: { private: string };
  let other: { private: string };
  beforeAll(async () => {
    t = await startApp(backend, { REBOUND_SECRET_KEY: TEST_SECRET_KEY });
    keys = await t.createShop('prov');
    other = await t.createShop('prov-other');
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const put = (body: unknown, bearer?: string, handle = 'prov') =>
    t.admin('PUT', `/admin/v1/shops/${handle}/billing/provider`, body, bearer);
  const remote = { type: 'remote', base_url: 'https://api.billing.example', api_token: TOKEN, api_version: '2021-11' };

  it('is the ledger until a shop switches, and never answers the token', async () => {
    expect((await t.admin('GET', '/admin/v1/shops/prov/billing/provider')).json()).toEqual({
      type: 'ledger',
      base_url: null,
      api_version: null,
      api_token_set: false,
    });
    const res = await put(remote);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      type: 'remote',
      base_url: 'https://api.billing.example',
      api_version: '2021-11',
      api_token_set: true,
    });
    expect(res.body).not.toContain(TOKEN);
    expect((await t.admin('GET', '/admin/v1/shops/prov/billing/provider')).body).not.toContain(TOKEN);
    const stored = await t.services.store.getBillingProvider((await t.services.store.getShopByHandle('prov'))!.id);
    expect(stored?.api_token).toMatch(/^v1\./);
    expect(stored?.api_token).not.toContain(TOKEN);
  });

  it('keeps the stored token when a change on the same origin leaves it out, and goes back to the ledger', async () => {
    const before = (await t.services.store.getBillingProvider((await t.services.store.getShopByHandle('prov'))!.id))!
      .api_token;
    expect(
      (await put({ type: 'remote', base_url: 'https://api.billing.example/v2/' }, keys.private)).json(),
    ).toMatchObject({
      base_url: 'https://api.billing.example/v2',
      api_token_set: true,
    });
    expect(
      (await t.services.store.getBillingProvider((await t.services.store.getShopByHandle('prov'))!.id))!.api_token,
    ).toBe(before);
    expect((await put({ type: 'ledger' })).json()).toEqual({
      type: 'ledger',
      base_url: null,
      api_version: null,
      api_token_set: false,
    });
  });

  it("refuses bad settings with 422 naming the field, and other shops' keys with 404", async () => {
    const field = async (body: unknown) => (await put(body)).json().field;
    expect(await field({ ...remote, base_url: 'http://api.billing.example' })).toBe('base_url');
    expect(await field({ ...remote, base_url: 'https://user:pw@api.billing.example' })).toBe('base_url');
    expect(await field({ ...remote, base_url: 'not a url' })).toBe('base_url');
    expect(await field({ type: 'remote', base_url: 'https://api.billing.example' })).toBe('api_token');
    expect((await put({ ...remote, api_version: '2024-01' })).statusCode).toBe(422);
    // A token no HTTP header can carry: refused before it is stored, not at every call after.
    for (const api_token of ['tok\u{1F600}en', 'tok en', ' token'])
      expect(await field({ ...remote, api_token }), api_token).toBe('api_token');
    expect((await put({ ...remote, extra: 1 })).statusCode).toBe(422);
    expect((await put({ type: 'stripe' })).statusCode).toBe(422);
    expect((await put(remote, other.private)).statusCode).toBe(404);
    expect((await put(remote, undefined, 'nope')).statusCode).toBe(404);
  });
});

describe('a remote provider without REBOUND_SECRET_KEY', () => {
  const [backend] = backends();

  it('cannot be configured, and stops start-up with one line naming the key', async () => {
    const withKey = await startApp(backend!, { REBOUND_SECRET_KEY: TEST_SECRET_KEY });
    await withKey.createShop('keyless');
    expect(
      (
        await withKey.admin('PUT', '/admin/v1/shops/keyless/billing/provider', {
          type: 'remote',
          base_url: 'https://api.billing.example',
          api_token: TOKEN,
        })
      ).statusCode,
    ).toBe(200);
    const url = withKey.config.databaseUrl;
    await withKey.close();

    const serve = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 180_000,
        env: {
          ...process.env,
          DATABASE_URL: url,
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
          REBOUND_DEMO: 'false',
          REBOUND_ADMIN_TOKEN: 'startup-test-operator-token-0123',
          ...env,
        },
      });
    const missing = serve({});
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^rebound: Shop keyless \(id \d+\) uses a remote billing provider, but REBOUND_SECRET_KEY is not set/,
      ),
    ]);
    const wrong = serve({ REBOUND_SECRET_KEY: '7a'.repeat(32) });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(
      /^rebound: REBOUND_SECRET_KEY does not open the billing provider token of shop [a-z0-9-]+ \(id \d+\)/,
    );

    const keyless = await startApp(backend!);
    await keyless.createShop('keyless-2');
    const refused = await keyless.admin('PUT', '/admin/v1/shops/keyless-2/billing/provider', {
      type: 'remote',
      base_url: 'https://api.billing.example',
      api_token: TOKEN,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ field: 'api_token', error: expect.stringContaining('REBOUND_SECRET_KEY') });
    await keyless.close();
    await backend!.cleanup();
  });
});
