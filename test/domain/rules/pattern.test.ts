import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { compilePattern } from '../../../src/domain/rules/pattern.js';
import { expandedAtoms } from '../../../src/domain/rules/pattern-size.js';

describe('compilePattern (RE2)', () => {
  it('reads /pattern/flags and plain patterns as JavaScript would', () => {
    expect(compilePattern('/collections\\/sale\\b/i').test('/COLLECTIONS/SALE?page=2')).toBe(true);
    expect(compilePattern('collections.sale').test('/COLLECTIONS/SALE')).toBe(false);
    expect(compilePattern('/^a.b$/s').test('a\nb')).toBe(true);
    expect(compilePattern('/^b$/m').test('a\nb')).toBe(true);
    expect(compilePattern('/collections/sale').test('x/collections/sale')).toBe(true); // a path, not flags
  });

  it('refuses what RE2 cannot run in linear time', () => {
    expect(() => compilePattern('(a)\\1')).toThrow(/escape/);
    expect(() => compilePattern('/^(?=a)/')).toThrow(/Perl syntax/);
  });

  it('matches a catastrophic pattern without backtracking', () => {
    // A backtracking engine takes hours on 2,000 characters (the test would time out); RE2 answers.
    expect(compilePattern('/^(a+)+$/').test(`${'a'.repeat(2000)}!`)).toBe(false);
  });

  it('reports its compiled size, which a counted repeat multiplies', () => {
    expect(compilePattern('sale').size).toBeLessThan(10);
    expect(compilePattern('(a|b){100}c').size).toBeGreaterThan(300);
    expect(compilePattern('(a|b){100}c').size).toBeLessThan(compilePattern('(a|b){101}c').size);
  });

  it('keeps a bounded DFA cache, whatever the text makes it build', () => {
    // 2^12 window states over \pL's ~1,400 rune classes: re2js's own budget lets one such match keep ~8 MB.
    const gc = exposedGc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const patterns = Array.from({ length: 20 }, (_, i) => compilePattern(`\\pL*a\\pL{12}x|z${i}`));
    for (const pattern of patterns) expect(pattern.test(randomAB(4095))).toBe(true);
    gc();
    const perPattern = (process.memoryUsage().heapUsed - before) / patterns.length;
    expect(perPattern).toBeLessThan(1024 * 1024);
  });
});

function randomAB(length: number): string {
  let text = '';
  let seed = 1;
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    text += seed & 1024 ? 'a' : 'b';
  }
  return `${text}x`;
}

function exposedGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

describe("expandedAtoms, read from a pattern's text", () => {
  it('never says more than the pattern compiles to, so it refuses nothing the compiler would take', () => {
    const patterns = [
      '/collections/sale',
      '^/products/(shoe|boot)s?$',
      '/SALE/i',
      '(?i)sale',
      '(?:\\pL){20}',
      '\\pL+',
      '[[:alpha:]]{3}x',
      '[\\]a]{4}',
      '\\Qa.b\\E{5}',
      '(\\Qabcdef\\E){40}',
      '\\Q\\E',
      '\\Qab',
      'a{2,}',
      'a{2,9}',
      '(?P<n>ab){3}',
      'x{0}',
      '((\\pL|\\pN){10}){10}x',
      '(a|b){160}c',
      '\\p{Greek}{50}',
      '\\x{263a}{7}',
      // RE2 makes one class of one-character alternatives.
      '(\\pL|\\pN|\\pS|\\pP){130}x',
      '(shoes|shirts){20}',
      '(a|bc|d){50}',
      '(\\Qab\\E|\\Qac\\E){30}',
      '((a|b)c|(a|b)d){20}',
      'a|b|c',
    ];
    for (const pattern of patterns)
      expect(expandedAtoms(pattern), pattern).toBeLessThanOrEqual(compilePattern(pattern).size);
  });

  it('multiplies what a counted repeat follows, nested groups included', () => {
    expect(expandedAtoms('(\\pL|\\pN){1000}x')).toBe(1001);
    expect(expandedAtoms('(\\pLx|\\pNy){100}')).toBe(400);
    // Alternatives that begin alike add up: what RE2 does not factor out (a group) would compile unseen.
    expect(expandedAtoms('((ab){20}x|(ab){20}y){10}')).toBe(820);
    expect(expandedAtoms('((ab){10}){10}')).toBe(200);
    expect(expandedAtoms('[a-z]{1000}')).toBe(1000);
  });

  it('counts each quoted character, so a long quote repeated is refused before it compiles', () => {
    // 480 quoted characters 500 times compiled to 241,002 instructions in a third of a second, counted as 500.
    expect(expandedAtoms('(\\Qabcd\\E){10}')).toBe(40);
    expect(expandedAtoms('\\Qabcd\\E{10}')).toBe(13);
    expect(expandedAtoms(`(\\Q${'a'.repeat(480)}\\E){500}`)).toBe(240_000);
  });
});
