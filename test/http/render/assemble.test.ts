import { describe, expect, it } from 'vitest';
import { assemble } from '../../../src/http/render/products.js';

const parts = (...texts: string[]) => texts.map((t) => Buffer.from(t));

describe('assembling an answer beside the stored one', () => {
  it('returns the stored Buffer itself when the bytes come out the same', () => {
    const stored = Buffer.from('{"data":[1,2]}');
    expect(assemble(parts('{"data":', '[1,2]', '}'), stored)).toBe(stored);
    expect(assemble(parts('{"data":[', '1,2', '', ']}'), stored)).toBe(stored);
    expect(assemble(parts('{"data":', '[1,2]', ']'), stored)).not.toBe(stored);
  });

  it('returns bytes of their own when they differ, untouched by the next assembly', () => {
    const stored = Buffer.from('{"data":[1,2]}');
    const changed = assemble(parts('{"data":', '[2,1]', '}'), stored);
    expect(changed).not.toBe(stored);
    expect(changed.toString()).toBe('{"data":[2,1]}');
    expect(stored.toString()).toBe('{"data":[1,2]}');
    // What was returned shares no bytes with a later assembly.
    assemble(parts('{"data":', '[3,3]', '}'), stored);
    expect(changed.toString()).toBe('{"data":[2,1]}');
    const longer = assemble(parts('{"data":', '[1,2,3]', '}'), stored);
    expect(longer.toString()).toBe('{"data":[1,2,3]}');
    expect(assemble(parts('a', 'b'))).toEqual(Buffer.from('ab'));
  });
});
