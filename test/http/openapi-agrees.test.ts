import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { startApp, type TestApp } from '../helpers/app.js';

type Requirement = Record<string, string[]>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
interface Operation {
  parameters?: Parameter[];
  security?: Requirement[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
}
type Operations = Record<string, Record<string, Operation>>;

/**
 * Client generators read the OpenAPI document: what an endpoint refuses as missing must be
 * marked required there, what is marked required must be refused when absent, every keyed route must name
 * its key (security), and a POST whose parameters may come in a body must document that body.
 */
describe('the OpenAPI document agrees with the answers', () => {
  const [backend] = backends();
  let t: TestApp;
  let keys: { public: string; private: string };
  let paths: Operations;
  beforeAll(async () => {
    t = await startApp(backend!);
    keys = await t.createShop('required');
    paths = (await t.app.inject('/api/v1/openapi.json')).json().paths;
  });
  afterAll(() => t.close().then(() => backend!.cleanup()));

  /** Every /api/v1 operation, to be asked with the key (when it names one) and nothing else. */
  const operations = () =>
    Object.entries(paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({
          path,
          method: method.toUpperCase(),
          parameters: op.parameters ?? [],
          keyed: (op.security ?? []).some((r) => 'apiKey' in r),
          security: op.security,
        })),
      );
  const bareCalls = () => operations().filter((op) => op.keyed);

  it('marks required every query parameter an endpoint refuses as missing', async () => {
    const calls = bareCalls();
    const disagreements: string[] = [];
    let refusals = 0;
    for (const { path, method, parameters } of calls) {
      const key = path.startsWith('/api/v1/billing/') ? keys.private : keys.public;
      const url = `${path.replace(/\{[^}]+\}/g, '1')}?key=${key}`;
      const res = await t.app.inject({ method: method as 'GET', url, ...(method === 'POST' ? { payload: {} } : {}) });
      const body = res.statusCode === 400 ? res.json() : null;
      if (body?.code !== 'missing_parameter' || !body.parameter) continue;
      refusals++;
      const declared = parameters.find((p) => p.name === body.parameter);
      // A parameter named with its alternatives ("shop_customer_id or uuid") is required only as one of them.
      if (declared && !declared.required && !/\bor\b/.test(body.error))
        disagreements.push(`${method} ${path}: ${body.parameter} is refused as missing but not marked required`);
    }
    expect(refusals).toBeGreaterThan(3);
    expect(disagreements).toEqual([]);
    // Refused only once the parameters before them are given: checked by name.
    const subscribe = paths['/api/v1/billing/subscribe']!.post!.parameters!;
    const requiredOf = (name: string) => subscribe.find((p) => p.name === name)?.required;
    expect([requiredOf('order_interval_unit'), requiredOf('order_interval_frequency')]).toEqual([true, true]);
  });

  it('refuses each query parameter marked required when it alone is absent', async () => {
    const disagreements: string[] = [];
    for (const { path, method, parameters } of bareCalls()) {
      const required = parameters.filter((p) => p.in === 'query' && p.required && p.name !== 'key');
      if (required.length !== 1) continue;
      const key = path.startsWith('/api/v1/billing/') ? keys.private : keys.public;
      const url = `${path.replace(/\{[^}]+\}/g, '1')}?key=${key}`;
      const res = await t.app.inject({ method: method as 'GET', url, ...(method === 'POST' ? { payload: {} } : {}) });
      const body = res.statusCode === 400 ? res.json() : {};
      if (body.code !== 'missing_parameter' || body.parameter !== required[0]!.name)
        disagreements.push(
          `${method} ${path}: without ${required[0]!.name}, ${res.statusCode} ${res.body.slice(0, 120)}`,
        );
    }
    expect(disagreements).toEqual([]);
  });

  it('names every route that takes a key, and each one answers a key sent in the X-Api-Key header', async () => {
    const disagreements: string[] = [];
    const all = operations();
    expect(bareCalls().length).toBeGreaterThan(15);
    for (const { path, method, keyed, security } of all) {
      const url = path.replace(/\{[^}]+\}/g, '1');
      const payload = method === 'POST' ? { payload: {} } : {};
      const bare = await t.app.inject({ method: method as 'GET', url, ...payload });
      const refused = (res: typeof bare) =>
        res.statusCode === 401 || (res.statusCode === 400 && res.json().parameter === 'key');
      if (!keyed) {
        if (refused(bare)) disagreements.push(`${method} ${path}: takes a key but names none`);
        continue;
      }
      if (!security!.some((r) => 'apiKeyHeader' in r)) disagreements.push(`${method} ${path}: no X-Api-Key`);
      const key = path.startsWith('/api/v1/billing/') ? keys.private : keys.public;
      const keyed_ = await t.app.inject({ method: method as 'GET', url, headers: { 'x-api-key': key }, ...payload });
      if (!refused(bare) || refused(keyed_))
        disagreements.push(`${method} ${path}: ${bare.statusCode} without a key, ${keyed_.statusCode} with it`);
    }
    expect(disagreements).toEqual([]);
    expect(paths['/admin/v1/shops']!.get!.security).toEqual([{ adminToken: [] }]);
  });

  it('documents the body a POST reads its parameters from, and reads a required one from it', async () => {
    const onetime = paths['/api/v1/billing/onetime']!.post!;
    const types = Object.keys(onetime.requestBody!.content);
    expect(types).toEqual(expect.arrayContaining(['application/json', 'application/x-www-form-urlencoded']));
    expect(Object.keys(onetime.requestBody!.content['application/json']!.schema.properties!)).toContain(
      'shop_variant_id',
    );
    expect(paths['/api/v1/analytics/event']!.get!.requestBody).toBeUndefined();
    const url = `/api/v1/billing/onetime?key=${keys.private}&address_id=1`;
    const without = (await t.app.inject({ method: 'POST', url, payload: {} })).json();
    expect(without).toMatchObject({ code: 'missing_parameter', parameter: 'shop_variant_id' });
    const withIt = (await t.app.inject({ method: 'POST', url, payload: { shop_variant_id: 11 } })).json();
    expect(withIt.parameter).not.toBe('shop_variant_id');
  });
});
