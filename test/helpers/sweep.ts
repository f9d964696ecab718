import { STATUS_CODES } from 'node:http';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { expectDocumentedCode } from './error-codes.js';
import { headerSafe, hostileJsonBody, hostileText, PROTO_NAMES } from './hostile-values.js';
import { type RouteEntry, type RouteRecorder, routeKey } from './route-table.js';

/** No request may take more server time than this (docs/operations.md, "Process limits"). */
export const SERVER_MS_BOUND = 100;

/**
 * Whether server times are held to their bounds: only in the measurement run (`npm run bench:bounds`,
 * TIME_BOUNDS=on), never in `npm test`, whose answers must not depend on the machine's speed. The
 * tests time every request and print the slowest either way.
 */
export const TIME_BOUNDS = process.env.TIME_BOUNDS === 'on';

/** The test's title, with its time bound when the run holds requests to it. */
export const withBound = (title: string, bound: string) => (TIME_BOUNDS ? `${title}, ${bound}` : title);

/** The title of the sweeps of JSON routes. */
export const SWEEP_TITLE = withBound(
  'never answers 5xx, names every problem',
  `at most ${SERVER_MS_BOUND} ms of server time per request`,
);

/** The shape hostile parameters travel in. */
export type Shape =
  | 'plain'
  | 'repeated'
  | 'bracketed'
  | 'json'
  | 'form'
  | 'text'
  | 'multipart'
  | 'empty-json'
  | 'raw-json'
  | 'ndjson';
const SHAPES: Shape[] = [
  'plain',
  'repeated',
  'bracketed',
  'json',
  'form',
  'text',
  'multipart',
  'empty-json',
  'raw-json',
  'raw-json',
  'ndjson',
];

export interface Case {
  route: RouteEntry;
  picks: [number, string][];
  shape: Shape;
  /** A raw JSON body for routes that declare one. */
  json: string;
}

/** Cases over the given routes: hostile values for their declared parameters and bodies. */
export function cases(routes: RouteEntry[], fields: string[]): fc.Arbitrary<Case> {
  return fc.record({
    route: fc.constantFrom(...routes),
    picks: fc.array(fc.tuple(fc.nat(), hostileText), { minLength: 1, maxLength: 4 }),
    shape: fc.constantFrom(...SHAPES),
    json: hostileJsonBody(fields),
  });
}

export interface Built {
  options: InjectOptions;
  label: string;
}

/** The request a case describes: `base` gives path parameter defaults and the query every request carries (the key). */
export function build(
  c: Case,
  base: {
    path: Record<string, string>;
    query?: [string, string][];
    headers?: Record<string, string>;
    names?: string[];
  },
): Built {
  const { route, shape } = c;
  const names = [
    ...route.query.filter((n) => n !== 'key'),
    ...route.params,
    ...route.headers,
    ...(base.names ?? []),
    ...PROTO_NAMES,
    'x',
  ];
  const path: Record<string, string> = { ...base.path };
  const query = new URLSearchParams(base.query ?? []);
  const headers: Record<string, string> = { ...base.headers };
  const fields: Record<string, string> = {};
  for (const [i, value] of c.picks) {
    const name = names[i % names.length]!;
    if (route.params.includes(name)) path[name] = value;
    else if (route.headers.includes(name)) headers[name] = headerSafe(value);
    else if (route.body && ['json', 'form', 'text', 'multipart'].includes(shape)) fields[name] = value;
    else {
      query.append(shape === 'bracketed' ? `${name}[]` : name, value);
      if (shape === 'repeated') query.append(name, value);
    }
  }
  const url = route.url
    .replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(path[name] || 'x'))
    .replace(/^\/?\*$/, '/api/v1/products/static')
    .replace(/\*$/, 'any');
  const options: InjectOptions = {
    method: route.method as InjectOptions['method'],
    url: `${url}${query.size ? `?${query}` : ''}`,
    headers,
  };
  if (route.body && route.method !== 'GET') {
    const sent = body(shape, fields, c.json);
    Object.assign(options, { payload: sent.payload, headers: { ...headers, ...sent.headers } });
  }
  const sent = typeof options.payload === 'string' ? ` body=${options.payload.slice(0, 120)}` : '';
  return { options, label: `${route.method} ${options.url!.toString().slice(0, 300)}${sent}` };
}

function body(
  shape: Shape,
  fields: Record<string, string>,
  json: string,
): { payload: string; headers: Record<string, string> } {
  const typed = (type: string, payload: string) => ({ payload, headers: { 'content-type': type } });
  switch (shape) {
    case 'json':
      return typed('application/json', JSON.stringify(fields));
    case 'form':
      return typed('application/x-www-form-urlencoded', new URLSearchParams(fields).toString());
    case 'text':
      return typed('text/plain;charset=UTF-8', JSON.stringify(fields));
    case 'multipart': {
      const boundary = '----hostile7MA4YWxkTrZu0gW';
      const parts = Object.entries(fields).map(
        ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
      );
      return typed(`multipart/form-data; boundary=${boundary}`, `${parts.join('')}--${boundary}--\r\n`);
    }
    case 'ndjson':
      return typed('application/x-ndjson', `${json}\n${JSON.stringify(fields)}\n`);
    case 'empty-json':
      return typed('application/json', '');
    default:
      return typed('application/json', json);
  }
}

const STATUS_PHRASES = Object.values(STATUS_CODES);

export interface SweepStats {
  requests: number;
  maxMs: number;
  slowest: string;
  byRoute: Map<string, number>;
  statuses: Map<number, number>;
  /** Error codes answered, with how often. */
  codes: Map<string, number>;
}

export const newStats = (): SweepStats => ({
  requests: 0,
  maxMs: 0,
  slowest: '',
  byRoute: new Map(),
  statuses: new Map(),
  codes: new Map(),
});

let sequence = 0;

/**
 * Sends a request and returns it with its server time (for a
 * request no route took, the whole round trip, which bounds it).
 */
export async function timed(
  t: TestApp,
  rec: RouteRecorder,
  options: InjectOptions,
): Promise<{ res: LightMyRequestResponse; ms: number }> {
  const id = `sweep-${++sequence}`;
  const started = performance.now();
  const res = await t.app.inject({
    ...options,
    headers: { ...(options.headers as Record<string, string>), 'x-request-id': id },
  });
  const roundTrip = performance.now() - started;
  return { res, ms: (await rec.timeOf(id)) ?? roundTrip };
}

/**
 * Sends a case and checks the answer: never a 5xx; a JSON error names what is wrong; an HTML
 * answer is a page. With TIME_BOUNDS, a request over the time bound is sent again (up to 3 times)
 * and its fastest try is held to the bound.
 */
export async function sendAndCheck(
  t: TestApp,
  rec: RouteRecorder,
  built: Built,
  route: RouteEntry,
  stats: SweepStats,
): Promise<LightMyRequestResponse> {
  let { res, ms } = await timed(t, rec, built.options);
  for (let retry = 0; TIME_BOUNDS && retry < 3 && ms > SERVER_MS_BOUND; retry++)
    ms = Math.min(ms, (await timed(t, rec, built.options)).ms);
  stats.requests++;
  stats.byRoute.set(routeKey(route), (stats.byRoute.get(routeKey(route)) ?? 0) + 1);
  stats.statuses.set(res.statusCode, (stats.statuses.get(res.statusCode) ?? 0) + 1);
  if (ms > stats.maxMs) Object.assign(stats, { maxMs: ms, slowest: built.label.slice(0, 160) });
  const what = `${built.label} → ${res.statusCode} ${res.body.slice(0, 200)}`;
  expect(res.statusCode, what).toBeLessThan(500);
  expect(res.headers['x-content-type-options'], `nosniff on ${what}`).toBe('nosniff');
  if (TIME_BOUNDS) expect(ms, `server time of ${what}`).toBeLessThanOrEqual(SERVER_MS_BOUND);
  const type = String(res.headers['content-type'] ?? '');
  if (res.statusCode >= 400 && type.includes('application/json')) {
    const error = res.json().error;
    expect(typeof error, what).toBe('string');
    expect(error.length, what).toBeGreaterThan(5);
    // A bare status phrase ("Bad Request") does not say what is wrong.
    expect(STATUS_PHRASES, what).not.toContain(error);
    expectDocumentedCode(res.json(), res.statusCode, what);
    stats.codes.set(res.json().code, (stats.codes.get(res.json().code) ?? 0) + 1);
  }
  if (res.statusCode >= 400 && type.includes('text/html')) expect(res.body, what).toMatch(/<html|<!doctype/i);
  return res;
}

/** One line for the test output: how many requests, which answers, the slowest. */
export function summary(name: string, stats: SweepStats): string {
  const statuses = [...stats.statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  const codes = [...stats.codes].map(([c, n]) => `${c}×${n}`).join(' ');
  return (
    `${name}: ${stats.requests} requests over ${stats.byRoute.size} routes (${statuses}; ${codes}); ` +
    `slowest ${stats.maxMs.toFixed(1)} ms: ${stats.slowest}`
  );
}
