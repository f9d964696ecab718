import fc from 'fast-check';

/** Names that reach prototypes when an object is keyed by client input. */
export const PROTO_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

/** Inputs whose cost grows badly in naive code: backtracking, quadratic scans, deep recursion. */
export const PATHOLOGICAL = [
  `${'a'.repeat(5000)}!`,
  '^(a+)+$',
  '(a|aa)+$',
  '<'.repeat(10_000),
  '<p>'.repeat(3_000),
  `<${'a '.repeat(4_000)}`,
  ','.repeat(10_000),
  '1,'.repeat(5_000),
  '9'.repeat(10_000),
  'x'.repeat(10 * 1024),
  '😀'.repeat(3_000),
  '%'.repeat(3_000),
  `${'['.repeat(3_000)}${']'.repeat(3_000)}`,
];

/**
 * Upstream URLs a tenant could aim the platform at: loopback, private, link-local, metadata and
 * unspecified addresses in each spelling, and `LOOPBACK_NAME`, which the tests' resolver answers
 * with 127.0.0.1 (as a hostile DNS server would).
 */
export const LOOPBACK_NAME = 'to-loopback.rebound.test';
export const SSRF_URLS = [
  'http://127.0.0.1:9',
  'https://127.0.0.1',
  'https://localhost',
  'https://localhost.',
  'https://api.localhost',
  'https://127.1',
  'https://0x7f000001',
  'https://2130706433',
  'https://0177.0.0.1',
  'https://[::1]',
  'https://[::ffff:127.0.0.1]',
  'https://[0:0:0:0:0:ffff:7f00:1]',
  'https://10.0.0.5',
  'https://172.16.3.4',
  'https://192.168.1.10',
  'https://169.254.169.254',
  'https://[fe80::1]',
  'https://[fd12::1]',
  'https://0.0.0.0',
  'https://[::]',
  'https://224.0.0.1',
  'https://user:password@api.example.com',
  `https://${LOOPBACK_NAME}`,
];

/** A single hostile parameter value. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '-1',
      '0',
      '1',
      '100',
      '101',
      '250',
      '1e309',
      'NaN',
      'Infinity',
      '-0.5',
      '0x10',
      '9'.repeat(400),
      '1'.repeat(17),
      'yes',
      'no',
      'YES',
      'true',
      'False',
      'all',
      'pretty',
      'live',
      'preview',
      'today',
      '\u0000',
      '\r\n',
      'ü',
      '😀',
      "' OR 1=1 --",
      '<script>alert(1)</script>',
      '../../etc/passwd',
      '1,2,3',
      ',,,',
      '2026-02-30',
      '2026-11-23T10:00:00Z',
      '3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b',
      '/re(/',
      '1 2',
      '%',
      '{"a":1}',
      '{"__proto__":{"polluted":1}}',
      '[object Object]',
      ...PROTO_NAMES,
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom(...PATHOLOGICAL) },
  { weight: 1, arbitrary: fc.constantFrom(...SSRF_URLS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

/** JSON text nested `depth` levels deep, in arrays or objects. */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Raw JSON texts no generator of values produces: prototype keys, deep nesting, 100 KB strings, invalid JSON. */
export const RAW_JSON = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '[{"__proto__":{"polluted":"yes"},"id":1}]',
  deepJson(5_000, 'array'),
  deepJson(5_000, 'object'),
  JSON.stringify({ title: 'x'.repeat(100 * 1024) }),
  JSON.stringify([{ id: 1, body_html: '<'.repeat(100 * 1024) }]),
  JSON.stringify(Array.from({ length: 5_000 }, (_, i) => i)),
  '{',
  '',
  'null',
  '"text"',
  '{"a":1}{"b":2}',
];

/** A JSON body: generated values keyed by the given field names (and prototype names), or one of the raw texts. */
export function hostileJsonBody(fields: string[]): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    hostileText,
    fc.constantFrom(-1, 0, 2 ** 53, 1e308, true, [], {}, null, [1, 2, 3], { id: 1 }),
  );
  const record = fc.dictionary(fc.constantFrom(...fields, ...PROTO_NAMES), value, { maxKeys: 6 });
  return fc.oneof(
    { weight: 5, arbitrary: record.map((r) => JSON.stringify(r)) },
    { weight: 3, arbitrary: fc.array(record, { maxLength: 3 }).map((r) => JSON.stringify(r)) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_JSON) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
  );
}

/** Header values must be printable ASCII on the wire. */
export const headerSafe = (value: string): string => value.replace(/[^\x20-\x7e]/g, '?').slice(0, 8 * 1024);

/** Object.prototype's own names, to compare after a run. */
export const prototypeNames = (): string[] => Object.getOwnPropertyNames(Object.prototype).sort();
