import { describe, expect, it } from 'vitest';
import { localTime } from '../../../src/domain/rules/local-time.js';

/** The wall clock as Intl reads it, formatted afresh each time. */
function expected(epochMs: number, timeZone: string) {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    weekday: 'short',
  });
  const parts = Object.fromEntries(f.formatToParts(new Date(epochMs)).map((p) => [p.type, p.value]));
  const date = Number(parts.year) * 10_000 + Number(parts.month) * 100 + Number(parts.day);
  return {
    date,
    dateTime: date * 10_000 + Number(parts.hour) * 100 + Number(parts.minute),
    weekday: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!),
    minuteOfDay: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

describe('localTime', () => {
  it('reads every second across a DST change, midnight and odd offsets as Intl does', () => {
    const starts = [
      ['Europe/Berlin', Date.UTC(2026, 2, 29, 0, 58)], // clocks go forward at 01:00 UTC
      ['America/New_York', Date.UTC(2026, 10, 1, 5, 58)], // clocks go back at 06:00 UTC
      ['Asia/Kathmandu', Date.UTC(2026, 0, 4, 18, 13)], // +05:45: local midnight, Sunday to Monday
      ['Africa/Monrovia', Date.UTC(1971, 5, 1, 0, 43)], // -00:44:30, before whole-minute offsets
    ] as const;
    for (const [zone, start] of starts) {
      for (let ms = start; ms < start + 4 * 60_000; ms += 997) expect(localTime(ms, zone)).toEqual(expected(ms, zone));
    }
  });

  it('answers each zone for its own instant when zones alternate within one minute', () => {
    const ms = Date.UTC(2026, 11, 31, 23, 30, 10);
    for (let i = 0; i < 3; i++) {
      expect(localTime(ms, 'UTC')).toEqual(expected(ms, 'UTC'));
      expect(localTime(ms, 'Pacific/Kiritimati')).toEqual(expected(ms, 'Pacific/Kiritimati'));
    }
  });
});
