/** Wall-clock parts of an instant in a shop's time zone, for date, weekday and time-of-day rules. */
export interface LocalTime {
  /** yyyymmdd as a number, e.g. 20261224. */
  date: number;
  /** yyyymmddhhmm as a number. */
  dateTime: number;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
  /** Minutes since local midnight. */
  minuteOfDay: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * Since 1980 every zone's offset is a whole number of minutes, so local wall-clock parts change
 * only when the UTC minute does: the last answer per zone serves the rest of its minute. Formatting
 * is most of a time rule's cost, and every computed answer with one asks it for `now`.
 */
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1980, 0, 1);
const lastByZone = new Map<string, { minute: number; local: Readonly<LocalTime> }>();

export function localTime(epochMs: number, timeZone: string): Readonly<LocalTime> {
  if (epochMs < WHOLE_MINUTE_OFFSETS_SINCE) return formatLocal(epochMs, timeZone);
  const minute = Math.floor(epochMs / 60_000);
  const last = lastByZone.get(timeZone);
  if (last !== undefined && last.minute === minute) return last.local;
  const local = Object.freeze(formatLocal(epochMs, timeZone));
  lastByZone.set(timeZone, { minute, local });
  return local;
}

function formatLocal(epochMs: number, timeZone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  const date = Number(parts.year) * 10_000 + Number(parts.month) * 100 + Number(parts.day);
  const hour = Number(parts.hour);
  const minute = Number(parts.minute);
  return {
    date,
    dateTime: date * 10_000 + hour * 100 + minute,
    weekday: WEEKDAYS.indexOf(parts.weekday!),
    minuteOfDay: hour * 60 + minute,
  };
}

/**
 * The instant a wall-clock time (`2026-12-05T10:00`, as a datetime-local field gives it) names in a
 * time zone: the console's preview Time is the shop's, as the trace shows it, not the browser's. The
 * zone's offset (whole minutes since 1980) is read at the guess and read again there, which lands
 * right on either side of a change of the clocks.
 */
export function instantOfLocal(local: string, timeZone: string): string {
  const [date = '', clock = '00:00'] = local.split('T');
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const [hour = 0, minute = 0, second = 0] = clock.split(':').map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const first = wall - offsetAt(wall, timeZone);
  return new Date(wall - offsetAt(first, timeZone)).toISOString();
}

/** How far the zone's clocks are ahead of UTC at an instant, in milliseconds. */
function offsetAt(epochMs: number, timeZone: string): number {
  const { dateTime } = localTime(epochMs, timeZone);
  const [ymd, hm] = [Math.floor(dateTime / 10_000), dateTime % 10_000];
  const asUtc = Date.UTC(Math.floor(ymd / 10_000), (Math.floor(ymd / 100) % 100) - 1, ymd % 100, hm / 100, hm % 100);
  return asUtc - Math.floor(epochMs / 60_000) * 60_000;
}

/** The range of instants JavaScript dates can hold. */
const MAX_EPOCH_MS = 8.64e15;

/** Whether year-month-day names a real calendar day (no 30 February). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const RFC2822 = new RegExp(
  String.raw`^(?:[A-Za-z]{3},\s*)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{4})\s+` +
    String.raw`(\d{2}):(\d{2})(?::(\d{2}))?\s*([+-]\d{4}|UT|GMT|[A-Z]{1,5})?$`,
);
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A numeric offset (`+0530`, `-08:00`) of at most 23 hours and 59 minutes; other zones are for Date.parse. */
function realOffset(zone: string | undefined): boolean {
  const numeric = zone === undefined ? null : /^[+-](\d{2}):?(\d{2})$/.exec(zone);
  return numeric === null || (Number(numeric[1]) <= 23 && Number(numeric[2]) <= 59);
}

/**
 * The `time` parameter: a unix timestamp in seconds (up to 11 digits) or milliseconds, or an
 * RFC 3339 / RFC 2822 time. A time without an offset is read as UTC, never in the server's zone.
 * Null when it is none of these, names no real date, or lies outside what a date can hold.
 */
export function parseRequestTime(text: string): number | null {
  const value = text.trim();
  let ms: number;
  if (/^\d{1,16}$/.test(value)) {
    ms = value.length <= 11 ? Number(value) * 1000 : Number(value);
  } else {
    const iso = RFC3339.exec(value);
    const rfc = iso ? null : RFC2822.exec(value);
    if (iso) {
      const [, y, m, d, h = '00', mi = '00', sec = '00', zone] = iso;
      const clock = Number(h) > 23 || Number(mi) > 59 || Number(sec) > 60;
      if (!isCalendarDate(Number(y), Number(m), Number(d)) || clock || !realOffset(zone)) return null;
      ms = Date.parse(zone ? value.replace(' ', 'T') : `${value.replace(' ', 'T')}${iso[4] ? '' : 'T00:00'}Z`);
    } else if (rfc) {
      const [, d, mon, y, h, mi, sec = '00', zone] = rfc;
      const month = MONTHS.indexOf(mon!.toLowerCase()) + 1;
      if (
        month === 0 ||
        !isCalendarDate(Number(y), month, Number(d)) ||
        Number(h) > 23 ||
        Number(mi) > 59 ||
        Number(sec) > 60 ||
        !realOffset(zone)
      )
        return null;
      ms = Date.parse(zone ? value : `${value} +0000`);
    } else {
      return null;
    }
  }
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_EPOCH_MS ? ms : null;
}
