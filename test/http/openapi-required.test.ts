import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { startApp, type TestApp } from '../helpers/app.js';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
type Operations = Record<string, Record<string, { parameters?: Parameter[] }>>;

/**
 * Client generators read `required` from the OpenAPI document: what an endpoint refuses as missing must be
 * marked required there, and what is marked required must be refused when absent.
 */
describe('the OpenAPI document and the missing-parameter answers agree', () => {
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

  /** Every /api/v1 operation that takes its key in the query, asked with the key and nothing else. */
  const bareCalls = () =>
    Object.entries(paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, methods]) =>
        Object.entries(methods)
          .filter(([, op]) => (op.parameters ?? []).some((p) => p.in === 'query' && p.name === 'key'))
          .map(([method, op]) => ({ path, method: method.toUpperCase(), parameters: op.parameters ?? [] })),
      );

  it('marks required every query parameter an endpoint refuses as missing', async () => {
    const calls = bareCalls();
    expect(calls.length).toBeGreaterThan(15);
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
});
