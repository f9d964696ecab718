import { describe, expect, it } from 'vitest';
import { MAX_HTML_READ, plainText } from '../../../src/domain/catalog/text.js';

describe('plainText', () => {
  it('removes tags, decodes the common entities and collapses whitespace', () => {
    expect(plainText('<p>Warm &amp; dry,<br/>\n  <b>wool</b> socks&nbsp;&lt;3</p>', 100)).toBe(
      'Warm & dry, wool socks <3',
    );
  });

  it('reads a tag from its < to the next >, and keeps a < that never closes as text', () => {
    expect(plainText('<i>c</i> 1 < 2', 100)).toBe('c 1 < 2');
    expect(plainText('a < b <i>c</i>', 100)).toBe('a c'); // as the pattern <[^>]*> reads it: "< b <i>" is one tag
  });

  it('caps the text with an ellipsis', () => {
    expect(plainText('<p>abcdefghij</p>', 5)).toBe('abcd…');
  });

  it('reads at most the first 64 KB of a description, whatever is after', () => {
    const html = `<p>${'x'.repeat(MAX_HTML_READ)}</p><p>tail</p>`;
    expect(plainText(html, 10 * MAX_HTML_READ)).not.toContain('tail');
  });

  it('stays linear on hostile markup: a megabyte of unclosed < is read at once', () => {
    // With /<[^>]*>/g this input takes minutes: every < rescans the rest of the text.
    const started = process.cpuUsage();
    expect(plainText('<'.repeat(1024 * 1024), 20)).toHaveLength(20);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(1000);
  });
});
