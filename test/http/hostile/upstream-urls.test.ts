import type { LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { TEST_SECRET_KEY } from '../../helpers/billing.js';
import { LOOPBACK_NAME, SSRF_URLS } from '../../helpers/hostile-values.js';

/**
 * Every URL-shaped field Rebound later calls, with the body that saves it. A new upstream field
 * (a platform connection's `api_url`, …) is added here, so every SSRF spelling is tried on it.
 */
const URL_FIELDS: { field: string; method: string; path: string; body: (url: string) => unknown }[] = [
  {
    field: 'base_url',
    method: 'PUT',
    path: '/admin/v1/shops/sweep/billing/provider',
    body: (url) => ({ type: 'remote', base_url: url, api_token: 'tok' }),
  },
];

/** The resolver of the app under test: LOOPBACK_NAME is loopback, as a hostile DNS server would answer. */
const hostileDns: LookupFunction = (host, options, callback) => {
  const address = host.replace(/\.$/, '') === LOOPBACK_NAME ? '127.0.0.1' : '93.184.216.34';
  if (options.all)
    (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
      { address, family: 4 },
    ]);
  else callback(null, address, 4);
};

describe('SSRF addresses in every URL-shaped field (production address rules)', () => {
  const [backend] = backends();
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startApp(backend!, { REBOUND_SECRET_KEY: TEST_SECRET_KEY }, { upstreamLookup: hostileDns });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.createShop('sweep');
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  const cases = URL_FIELDS.flatMap((f) => SSRF_URLS.map((url) => ({ ...f, url })));
  it.each(cases)('$field = $url is a 422 naming $field', async ({ field, method, path, body, url }) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body(url)),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { field: string }).field).toBe(field);
  });

  it.each(URL_FIELDS)('$field accepts a public https URL', async ({ method, path, body }) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body('https://api.provider.example')),
    });
    expect(res.status).toBe(200);
  });
});
