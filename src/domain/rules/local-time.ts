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
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function localTime(epochMs: number, timeZone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  const date = Number(parts.year) * 10_000 + Number(parts.month) * 100 + Number(parts.day);
  const hour = Number(parts.hour);
  const minute = Number(parts.minute);
  return { date, dateTime: date * 10_000 + hour * 100 + minute, weekday: WEEKDAYS.indexOf(parts.weekday!), minuteOfDay: hour * 60 + minute };
}

/**
 * The `time` parameter: a unix timestamp in seconds or milliseconds, or an RFC 3339 / RFC 2822
 * time. Null when it is none of these.
 */
export function parseRequestTime(text: string): number | null {
  const value = text.trim();
  if (/^\d{1,16}$/.test(value)) {
    const n = Number(value);
    // Ten or fewer digits cannot be milliseconds of any date after 1970-04-26.
    return value.length <= 11 ? n * 1000 : n;
  }
  if (!/^(\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?|([A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+\d{4}\s+\d{2}:\d{2}(:\d{2})?\s*([+-]\d{4}|[A-Z]{1,5})?)$/i.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}
