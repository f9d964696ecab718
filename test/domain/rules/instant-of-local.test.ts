import { describe, expect, it } from 'vitest';
import { instantOfLocal } from '../../../src/domain/rules/local-time.js';

describe("the preview's time, read in the shop's time zone", () => {
  it("names the instant of the shop's wall clock, whatever the browser's zone", () => {
    // Saturday 10:00 in New York (EST, UTC−5) is 15:00 UTC; in Tokyo (UTC+9) it is 01:00 UTC the same day.
    expect(instantOfLocal('2026-12-05T10:00', 'America/New_York')).toBe('2026-12-05T15:00:00.000Z');
    expect(instantOfLocal('2026-12-05T10:00', 'Asia/Tokyo')).toBe('2026-12-05T01:00:00.000Z');
    expect(instantOfLocal('2026-12-05T10:00:30', 'UTC')).toBe('2026-12-05T10:00:30.000Z');
  });

  it('takes the offset in force on the day, on either side of a change of the clocks', () => {
    // New York: EDT (UTC−4) until 1 November 2026, 02:00; EST after.
    expect(instantOfLocal('2026-10-31T23:30', 'America/New_York')).toBe('2026-11-01T03:30:00.000Z');
    expect(instantOfLocal('2026-11-01T12:00', 'America/New_York')).toBe('2026-11-01T17:00:00.000Z');
    expect(instantOfLocal('2026-07-01T00:00', 'Europe/Berlin')).toBe('2026-06-30T22:00:00.000Z');
  });
});
