import { describe, expect, it } from 'vitest';
import { compilePattern } from '../../../src/domain/rules/pattern.js';

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

  it('matches a catastrophic pattern in linear time', () => {
    const pattern = compilePattern('/^(a+)+$/');
    const started = process.cpuUsage();
    // A backtracking engine takes hours on 40 characters; RE2 is linear.
    expect(pattern.test(`${'a'.repeat(2000)}!`)).toBe(false);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(500);
  });
});
