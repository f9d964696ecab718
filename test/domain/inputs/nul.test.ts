import { describe, expect, it } from 'vitest';
import { mayHoldUnstorable, unstorablePath } from '../../../src/domain/inputs/nul.js';
import { MAX_UPSTREAM_DEPTH, parseUpstreamJson } from '../../../src/domain/inputs/upstream-json.js';

describe('U+0000 and unpaired surrogates in JSON text (src/domain/inputs/nul.ts)', () => {
  it('tells an escaped NUL from an escaped backslash before "u0000"', () => {
    expect(mayHoldUnstorable('{"a": "x\\u0000"}')).toBe(true);
    expect(mayHoldUnstorable('{"a": "x\\\\u0000"}')).toBe(false);
    expect(mayHoldUnstorable('{"a": "x\\\\\\u0000"}')).toBe(true);
  });

  it('names the first string or key holding one, in document order', () => {
    const pathOf = (text: string) => unstorablePath(JSON.parse(text))?.path ?? null;
    expect(pathOf('{"a": ["ok", {"b": "x\\u0000"}], "c": "\\u0000"}')).toBe('a[1].b');
    expect(pathOf('[{"k\\u0000": 1}, "\\u0000"]')).toBe('[0].k\u0000');
    expect(pathOf('"\\u0000"')).toBe('(value)');
    expect(pathOf('{"a": ["ok"]}')).toBeNull();
  });

  it('finds a surrogate without its other half, and not a whole pair', () => {
    expect(mayHoldUnstorable('{"handle": "z-\\ud800"}')).toBe(true);
    expect(mayHoldUnstorable('{"handle": "z-\\\\ud800"}')).toBe(false);
    expect(unstorablePath(JSON.parse('{"h": "z-\\ud800"}'))).toMatchObject({ path: 'h', what: /unpaired/ });
    expect(unstorablePath(JSON.parse('{"h": "\\udc00x"}'))?.path).toBe('h');
    // An escaped emoji is a whole pair: looked at (its escapes look alike), and kept.
    expect(mayHoldUnstorable('{"h": "\\ud83d\\ude00"}')).toBe(true);
    expect(unstorablePath(JSON.parse('{"h": "\\ud83d\\ude00"}'))).toBeNull();
    // Upstream, it becomes U+FFFD, as PostgreSQL made of it; a whole pair stays.
    expect(parseUpstreamJson('["z-\\ud800", "\\ud83d\\ude00"]')).toEqual(['z-\ufffd', '\u{1f600}']);
  });

  it("takes it out of an upstream document's strings and keys, and leaves the rest as parsed", () => {
    const text = '{"title": "Mug\\u0000 large", "tags": ["gi\\u0000ft"], "n\\u0000ame": "x", "price": 2, "n": null}';
    expect(parseUpstreamJson(text)).toEqual({ title: 'Mug large', tags: ['gift'], name: 'x', price: 2, n: null });
    expect(parseUpstreamJson('"a\\u0000b"')).toBe('ab');
    // A text without one is JSON.parse's value as it is; an escaped backslash is kept.
    expect(parseUpstreamJson('{"a": "x\\\\u0000"}')).toEqual({ a: 'x\\u0000' });
    expect(() => parseUpstreamJson('{"a": ')).toThrow(SyntaxError);
  });

  it('makes a key that becomes __proto__ a key, never the prototype', () => {
    const value = parseUpstreamJson('{"__pro\\u0000to__": {"admin": true}, "x": "\\u0000"}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect((value as { admin?: unknown }).admin).toBeUndefined();
  });

  it('walks a document nested 200,000 deep without running out of stack', () => {
    const depth = 200_000;
    const text = `${'['.repeat(depth)}"x\\u0000"${']'.repeat(depth)}`;
    expect(unstorablePath(JSON.parse(text))?.path).toBe(`…${'[0]'.repeat(64)}`);
  });

  it('refuses an upstream document nested deeper than it may be, unparsed', () => {
    // JSON.parse takes 2.4 million levels about fifteen times slower than as many bytes of rows.
    const nested = (depth: number, pad = 0) => `${'{"a":'.repeat(depth)}"${'x'.repeat(pad)}"${'}'.repeat(depth)}`;
    expect(() => parseUpstreamJson(nested(MAX_UPSTREAM_DEPTH + 1, 16 * 1024))).toThrow(SyntaxError);
    expect(() => parseUpstreamJson(nested(200_000))).toThrow(/deeper than 128/);
    // As deep as allowed, with brackets inside strings that are no nesting, it parses.
    const allowed = nested(MAX_UPSTREAM_DEPTH, 16 * 1024).replace('"x', `"${'[{'.repeat(500)}\\"x`);
    let inner = parseUpstreamJson(allowed);
    for (let i = 0; i < MAX_UPSTREAM_DEPTH; i++) inner = (inner as { a: unknown }).a;
    expect(inner).toMatch(/^(\[\{){500}"x+$/);
    // A short text is parsed as it is: its nesting cannot cost much.
    expect(parseUpstreamJson(nested(1000))).toBeTypeOf('object');
  });
});
