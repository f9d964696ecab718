import { isCalendarDate, localTime } from '../local-time.js';
import { operatorOf, splitList, type ConditionSpec, type Problem } from './shared.js';

/** A date or date-time bound: local wall-clock (compared in the shop's zone) or an instant (with offset). */
type Bound = { kind: 'date'; value: number } | { kind: 'local'; value: number } | { kind: 'instant'; value: number };

function parseBound(text: string): Bound | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(
    text.trim(),
  );
  if (!m) return null;
  const [, y, mo, d, h, mi, zone] = m;
  if (!isCalendarDate(Number(y), Number(mo), Number(d))) return null;
  const date = Number(y) * 10_000 + Number(mo) * 100 + Number(d);
  if (h === undefined) return { kind: 'date', value: date };
  if (Number(h) > 23 || Number(mi) > 59) return null;
  if (zone) {
    const ms = Date.parse(text.trim());
    return Number.isNaN(ms) ? null : { kind: 'instant', value: ms };
  }
  return { kind: 'local', value: date * 10_000 + Number(h) * 100 + Number(mi) };
}

/** Compares the request time with a bound: -1 before, 0 within (same day for dates), 1 after. */
function position(bound: Bound, epochMs: number, zone: string): number {
  const local = localTime(epochMs, zone);
  const [actual, target] =
    bound.kind === 'date'
      ? [local.date, bound.value]
      : bound.kind === 'local'
        ? [local.dateTime, bound.value]
        : [epochMs, bound.value];
  return Math.sign(actual - target);
}

export const dateCondition: ConditionSpec = {
  type: 'date',
  label: 'Date (shop time zone)',
  input: 'time (or now)',
  operators: [
    { code: 'between', label: 'is between (inclusive)', value: 'date_range' },
    { code: 'before', label: 'is before', value: 'date' },
    { code: 'after', label: 'is after', value: 'date' },
  ],
  compile(condition, path, problems) {
    const op = operatorOf(this, condition, path, problems);
    if (!op) return null;
    const parts = splitList(condition.value);
    const bounds = parts.map(parseBound);
    if (bounds.length !== (op.code === 'between' ? 2 : 1) || bounds.some((b) => b === null)) {
      problems.push({
        path: `${path}.value`,
        message:
          op.code === 'between' ? 'needs "start,end" as ISO dates or date-times' : 'needs an ISO date or date-time',
      });
      return null;
    }
    const [from, to] = bounds as Bound[];
    if (to && from!.kind === to.kind && from!.value > to.value) {
      problems.push({ path: `${path}.value`, message: 'the start must not be after the end' });
      return null;
    }
    return (request, world) => {
      const observed = new Date(request.time).toISOString();
      let result: boolean;
      if (op.code === 'before') result = position(from!, request.time, world.timezone) < 0;
      else if (op.code === 'after') result = position(from!, request.time, world.timezone) > 0;
      else
        result = position(from!, request.time, world.timezone) >= 0 && position(to!, request.time, world.timezone) <= 0;
      return { result, observed };
    };
  },
};

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** mon…sun or monday…sunday, any case; -1 otherwise. */
function dayIndex(text: string): number {
  const word = text.toLowerCase();
  const short = DAYS.indexOf(word);
  return short >= 0 ? short : DAY_NAMES.indexOf(word);
}

export const dayOfWeekCondition: ConditionSpec = {
  type: 'day_of_week',
  label: 'Day of the week (shop time zone)',
  input: 'time (or now)',
  operators: [{ code: 'contains_any', label: 'is one of', value: 'weekday_list' }],
  compile(condition, path, problems) {
    const op = operatorOf(this, condition, path, problems);
    const days = splitList(condition.value).map(dayIndex);
    if (days.length === 0 || days.includes(-1))
      problems.push({ path: `${path}.value`, message: 'needs days as mon,tue,wed,thu,fri,sat,sun' });
    if (!op || days.length === 0 || days.includes(-1)) return null;
    return (request, world) => {
      const day = localTime(request.time, world.timezone).weekday;
      return { result: days.includes(day), observed: DAYS[day] };
    };
  },
};

function minutesOf(text: string, path: string, problems: Problem[]): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!m || Number(m[1]) > 24 || Number(m[2]) > 59 || (Number(m[1]) === 24 && Number(m[2]) > 0)) {
    problems.push({ path, message: `"${text}" is not a time of day (HH:MM)` });
    return null;
  }
  return Number(m[1]) * 60 + Number(m[2]);
}

export const timeOfDayCondition: ConditionSpec = {
  type: 'time_of_day',
  label: 'Time of day (shop time zone)',
  input: 'time (or now)',
  operators: [{ code: 'between', label: 'is between', value: 'time_range' }],
  compile(condition, path, problems) {
    const op = operatorOf(this, condition, path, problems);
    const parts = splitList(condition.value);
    if (parts.length !== 2) {
      problems.push({
        path: `${path}.value`,
        message: 'needs "HH:MM,HH:MM" (start inclusive, end exclusive; may wrap midnight)',
      });
      return null;
    }
    const start = minutesOf(parts[0]!, `${path}.value`, problems);
    const end = minutesOf(parts[1]!, `${path}.value`, problems);
    if (!op || start === null || end === null) return null;
    if (start === end) {
      problems.push({ path: `${path}.value`, message: 'start and end must differ (the range would be empty)' });
      return null;
    }
    return (request, world) => {
      const now = localTime(request.time, world.timezone).minuteOfDay;
      const result = start <= end ? now >= start && now < end : now >= start || now < end;
      return {
        result,
        observed: `${String(Math.floor(now / 60)).padStart(2, '0')}:${String(now % 60).padStart(2, '0')}`,
      };
    };
  },
};
