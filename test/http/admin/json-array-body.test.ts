import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BULK_ROWS } from '../../../src/http/routes/admin/bulk.js';
import { ArrayElements, MAX_ROW_BYTES } from '../../../src/http/routes/admin/json-array.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';
import { answeredWhile, residentBesideImporting } from '../../helpers/turns.js';

/** The rows of a JSON array text as the admin parser finds them: each element parsed on its own. */
function rowsOf(text: string): unknown[] {
  const body = Buffer.from(text);
  const elements = new ArrayElements(body);
  const rows: unknown[] = [];
  while (elements.next()) rows.push(JSON.parse(body.toString('utf8', elements.start, elements.end)));
  return rows;
}

const accepted = (parse: () => unknown) => {
  try {
    return { ok: true, value: parse() };
  } catch {
    return { ok: false };
  }
};

// Strings with what the scan must see through: quotes, backslashes, brackets, commas, non-ASCII.
const tricky = fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', ' ', 'a', 'é', '😀', '\n') });
const value = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    tricky,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('json')),
    fc.dictionary(tricky, tie('json')),
  ),
})).json;
const structural = fc.constantFrom('[', ']', '{', '}', ',', '"', '\\', ':', ' ', '1', 'x');

describe('JSON array bodies read an element at a time (docs/api.md, "Admin API")', () => {
  it('finds the same rows as JSON.parse in any valid array, with any spacing', () => {
    fc.assert(
      fc.property(fc.array(value), fc.integer({ min: 0, max: 2 }), (rows, indent) => {
        const text = JSON.stringify(rows, null, indent);
        expect(rowsOf(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('accepts a text exactly when JSON.parse does, after any one character is added or removed', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1 }), fc.nat(), structural, fc.boolean(), (rows, at, char, add) => {
        const valid = JSON.stringify(rows);
        const place = at % valid.length;
        const text = add
          ? valid.slice(0, place) + char + valid.slice(place)
          : valid.slice(0, place) + valid.slice(place + 1);
        // As it arrives: UTF-8 (half of a removed surrogate pair becomes U+FFFD).
        const sent = Buffer.from(text).toString();
        const whole = accepted(() => JSON.parse(sent));
        if (whole.ok && !Array.isArray(whole.value)) return; // not an array: parsed whole by the route
        if (!sent.trimStart().startsWith('[')) return;
        expect(accepted(() => rowsOf(sent))).toEqual(whole);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what is not one array: unclosed, trailing text, a stray brace', () => {
    for (const text of ['[', '[1', '["a\\"]', '[1}', '[1] 2', '[1]]', '[{"a":1]}]'])
      expect(() => rowsOf(text), text).toThrow();
    expect(rowsOf('\uFEFF [ ]\n')).toEqual([]);
  });
});

describe.each(backends())('JSON array bodies of the admin API, on $name', (backend) => {
  let t: TestApp;
  let key: string;
  const put = (path: string, payload: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/admin/v1/shops/${path}`,
      headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/json' },
      payload,
    });

  beforeAll(async () => {
    t = await startApp(backend);
    key = await residentBesideImporting(t);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it('imports an array as before, and names the row that is not valid JSON', async () => {
    const rows = [productInput(10, { title: 'A "quoted" [title], {with} \\ marks' }), productInput(11)];
    const res = await put('importing/products', ` ${JSON.stringify(rows, null, 2)} `);
    expect(res.json()).toEqual({ upserted: 2 });
    const stored = await t.admin('GET', '/admin/v1/shops/importing/products?limit=10');
    expect(stored.json().data.map((p: { title: string }) => p.title)).toContain(rows[0]!.title);

    const broken = await put('importing/products', `[${JSON.stringify(productInput(12))}, {"id": 13,}]`);
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ code: 'invalid_body', error: 'Row 1 of the JSON array is not valid JSON.' });
    const unclosed = await put('importing/products', `[${JSON.stringify(productInput(12))}`);
    expect(unclosed.statusCode).toBe(400);
    expect(unclosed.json().code).toBe('invalid_body');
    // A prototype key is refused as Fastify's own parser refuses it in a whole body.
    const poisoned = await put('importing/customers', '[{"id": 1, "__proto__": {"admin": true}}]');
    expect(poisoned.statusCode).toBe(400);
    expect((await put('importing/customers', '{"id": 1, "__proto__": {}}')).statusCode).toBe(400);
    // And in an NDJSON line: the same parser, the line named.
    for (const key of ['"__proto__": {"admin": true}', '"constructor": {"prototype": {"admin": true}}']) {
      const line = await t.app.inject({
        method: 'PUT',
        url: '/admin/v1/shops/importing/customers',
        headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/x-ndjson' },
        payload: `{"id": 5}\n{"id": 6, ${key}}\n`,
      });
      expect(line.statusCode).toBe(400);
      expect(line.json()).toMatchObject({
        code: 'invalid_body',
        error: 'Line 2 of the NDJSON body is not valid JSON.',
      });
    }
    expect(await t.admin('GET', '/admin/v1/shops/importing/products?limit=10').then((r) => r.json().total)).toBe(2);
  });

  it('reads no body under a JSON type as no body: a DELETE goes through, a PUT is told what it lacks', async () => {
    const ruleset = await t.admin('POST', '/admin/v1/shops/importing/rulesets', { name: 'gone', rules: [] });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/shops/importing/rulesets/${ruleset.json().ruleset.id}`,
      headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/json' },
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    for (const payload of ['', '  \n']) {
      const empty = await put('importing/products', payload);
      expect(empty.statusCode).toBe(422);
      expect(empty.json().error).toContain('JSON array');
    }
  });

  it("answers a resident shop's requests while a large array body is parsed", async () => {
    // 3,000 rows of 2 KB, every one invalid: validation stops at the first, so the work is the parsing.
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i + 1, body_html: 'x'.repeat(2048) }));
    const importing = put('importing/products', JSON.stringify(rows));
    const answered = await answeredWhile(t, key, importing);
    const res = await importing;
    expect(res.statusCode).toBe(422);
    expect(res.json().index).toBe(0);
    console.info(`answered while parsing a 6 MB array: ${answered}`);
    // 6 MB at 256 KB a turn: about 24 turns; parsed in one call, the body left room for none.
    expect(answered).toBeGreaterThanOrEqual(12);
  });

  it('refuses a row over 8 MB with the white space before it, and names a row that starts with a BOM', async () => {
    const huge = await put('importing/customers', `[{"id": 1, "email": "${'x'.repeat(MAX_ROW_BYTES)}"}]`);
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toContain('larger than 8 MB');
    const spaced = await put('importing/customers', `[{"id": 1},${' '.repeat(MAX_ROW_BYTES)}{"id": 2}]`);
    expect(spaced.statusCode).toBe(413);
    // A byte order mark is white space only at the body's start; in a row it is not valid JSON.
    const bom = '\uFEFF';
    const marked = await put('importing/customers', `[{"id": 1}, ${bom}{"id": 2}, {"id": 3}]`);
    expect(marked.json()).toMatchObject({ code: 'invalid_body', error: 'Row 1 of the JSON array is not valid JSON.' });
    expect((await put('importing/customers', `${bom}[{"id": 4}]`)).json()).toEqual({ upserted: 1, erased: 0 });
  });

  it('refuses a body past 1,000,000 rows with a 413, as a JSON array and as NDJSON', async () => {
    const zeros = (n: number) => Array(n).fill('0');
    const atBound = await put('importing/customers', `[${zeros(MAX_BULK_ROWS).join(',')}]`);
    expect(atBound.statusCode).toBe(422); // parsed whole: a number is no customer
    const past = await put('importing/customers', `[${zeros(MAX_BULK_ROWS + 1).join(',')}]`);
    expect(past.statusCode).toBe(413);
    expect(past.json().error).toContain('at most 1,000,000 rows');
    const ndjson = await t.app.inject({
      method: 'PUT',
      url: '/admin/v1/shops/importing/customers',
      headers: { authorization: `Bearer ${t.config.adminToken}`, 'content-type': 'application/x-ndjson' },
      payload: zeros(MAX_BULK_ROWS + 1).join('\n'),
    });
    expect(ndjson.statusCode).toBe(413);
    expect(ndjson.json().error).toContain('at most 1,000,000 rows');
  });
});
