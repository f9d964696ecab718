import { describe, expect, it } from 'vitest';
import { answerCacheBytes } from '../../src/indexes/answer-cache-budget.js';

const MB = 1024 * 1024;

describe('answerCacheBytes', () => {
  it('bounds the answer cache by a 32nd of the budget and what it leaves above the baseline, 4 to 64 MB', () => {
    expect(answerCacheBytes(128)).toBe(4 * MB);
    expect(answerCacheBytes(160)).toBe(5 * MB); // was 20 MB, an eighth of the budget
    expect(answerCacheBytes(256)).toBe(8 * MB);
    expect(answerCacheBytes(512)).toBe(16 * MB); // was 64 MB
    expect(answerCacheBytes(1_048_576)).toBe(64 * MB);
  });
});
